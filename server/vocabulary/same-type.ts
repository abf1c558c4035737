// A check for tsc: the same type, key for key, not only each assignable to the other (which lets a
// missing optional field through). A schema held to the type its code declares fails to compile
// when a field is added to one and not the other.
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
