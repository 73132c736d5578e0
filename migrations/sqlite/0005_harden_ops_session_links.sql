-- A session created without a club is reached through capability links: a write link and
-- a read link, each a random secret of which only a SHA-256 is stored (the read secret is
-- derived from the write secret, so the holder of the write link can show both).
-- Sessions without a club made before this table (no row here) stay reachable by id.
CREATE TABLE session_links (
    session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
    write_hash TEXT    NOT NULL UNIQUE CHECK (length(write_hash) = 64),
    read_hash  TEXT    NOT NULL UNIQUE CHECK (length(read_hash) = 64)
) STRICT;
