import { type Kysely, sql } from 'kysely'

// Counting a rate limit's request and reading its window as one step per key (decision 038): two
// processes checking one key in different slices each read the window before the other's request was
// in it, and both were admitted (a shared rate of 20 a second let 22 through in a second). The
// function takes a lock on the key first, then reads with a fresh snapshot, and counts the request
// only when it fits, so a refusal needs no second statement to take it back.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function rate_limit_take(
      p_key text, p_slice bigint, p_oldest bigint, p_expires_ms bigint, p_cost integer, p_limit integer
    ) returns table (counted integer, oldest bigint, taken boolean)
    language plpgsql volatile as $$
    declare
      held integer;
      first bigint;
    begin
      -- 1936029812 is "sext": Sextant's rate limits, apart from pg-boss's advisory locks.
      perform pg_advisory_xact_lock(1936029812, hashtext(p_key));
      delete from rate_limit_slices s where s.key = p_key and s.slice < p_oldest;
      -- Slices a little ahead are another process's (its clock a little ahead); a window ahead or
      -- more are of another window's slicing, not of this one.
      select coalesce(sum(s.hits), 0)::integer, min(s.slice) into held, first
        from rate_limit_slices s
        where s.key = p_key and s.hits > 0 and s.slice <= p_slice + (p_slice - p_oldest);
      taken := held + p_cost <= p_limit;
      if taken then
        insert into rate_limit_slices as s (key, slice, hits, expires_at)
          values (p_key, p_slice, p_cost, to_timestamp(p_expires_ms / 1000.0))
          on conflict (key, slice) do update set hits = s.hits + excluded.hits;
        first := least(coalesce(first, p_slice), p_slice);
      end if;
      counted := held + p_cost;
      oldest := coalesce(first, p_slice);
      return next;
    end
    $$`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function rate_limit_take(text, bigint, bigint, bigint, integer, integer)`.execute(db)
}
