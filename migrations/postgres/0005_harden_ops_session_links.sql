-- PostgreSQL twin of migrations/sqlite/0005: a session without a club is reached through
-- capability links, of which only SHA-256 hashes are stored.
CREATE TABLE session_links (
    session_id BIGINT PRIMARY KEY REFERENCES sessions (id),
    write_hash TEXT   NOT NULL UNIQUE CHECK (length(write_hash) = 64),
    read_hash  TEXT   NOT NULL UNIQUE CHECK (length(read_hash) = 64)
);
