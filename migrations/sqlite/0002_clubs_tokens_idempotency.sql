-- Clubs: the people who play together own their players and sessions. A session without a
-- club is an open session (anyone who can reach the service may use it).

CREATE TABLE clubs (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 60),
    -- argon2id PHC string; the passphrase itself is never stored.
    passphrase_hash TEXT    NOT NULL,
    -- The read-only share link's secret. Kept so members can copy the link again; it grants
    -- looking only.
    share_token     TEXT    NOT NULL UNIQUE,
    created_at      TEXT    NOT NULL
) STRICT;

-- Players keep their identity across a club's sessions.
CREATE TABLE club_players (
    club_id INTEGER NOT NULL REFERENCES clubs (id),
    name    TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
    PRIMARY KEY (club_id, name)
) STRICT;

ALTER TABLE sessions ADD COLUMN club_id INTEGER REFERENCES clubs (id);
CREATE INDEX sessions_by_club ON sessions (club_id);

-- Login cookies and API bearer tokens: only a SHA-256 of the token is stored.
CREATE TABLE access_tokens (
    token_hash TEXT    PRIMARY KEY,
    club_id    INTEGER NOT NULL REFERENCES clubs (id),
    access     TEXT    NOT NULL CHECK (access IN ('read', 'write')),
    created_at TEXT    NOT NULL,
    expires_at TEXT    NOT NULL
) STRICT;

-- A retried API request with the same Idempotency-Key records one event: the key names
-- the event (seq) it recorded the first time.
CREATE TABLE idempotency_keys (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    key        TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
    seq        INTEGER NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (session_id, key)
) STRICT;
