// The text form of a UUID, as Postgres `uuid` columns accept it. An id from a URL or a tool call is
// checked against it before a query, so a malformed one finds nothing instead of failing the query
// with a cast error. Runs, series and topics all share it.
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
