// Page actions read their input as a form. Request.formData() throws on anything else (a JSON post,
// no body, a broken multipart body), which React Router would answer with a 500.
import { data } from 'react-router'

/** The posted form; a body that is not a readable form is a 400. */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    throw data('Send the form as application/x-www-form-urlencoded.', { status: 400 })
  }
}
