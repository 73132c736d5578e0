-- Sessions, their seats, their events and the postings of each event.
-- Events and postings are appended, never edited or deleted: corrections are new events.
-- Money is INTEGER cents (a NUMERIC column would turn 1.10 into 1.1).

CREATE TABLE sessions (
    id             INTEGER PRIMARY KEY,
    game           TEXT    NOT NULL,
    currency       TEXT    NOT NULL CHECK (length(currency) = 3),
    agreements     TEXT    NOT NULL CHECK (json_valid(agreements)),
    opening_scores TEXT    CHECK (opening_scores IS NULL OR json_valid(opening_scores)),
    created_at     TEXT    NOT NULL
) STRICT;

CREATE TABLE seats (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    position   INTEGER NOT NULL CHECK (position >= 0),
    player     TEXT    NOT NULL CHECK (length(player) BETWEEN 1 AND 40),
    PRIMARY KEY (session_id, position),
    UNIQUE (session_id, player)
) STRICT;

-- seq 0 is the opening ante of a kitty pot; seq N ≥ 1 is the session document's event N − 1.
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES sessions (id),
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    kind        TEXT    NOT NULL,
    body        TEXT    NOT NULL CHECK (json_valid(body)),
    explanation TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    UNIQUE (session_id, seq)
) STRICT;

CREATE TABLE postings (
    event_id     INTEGER NOT NULL REFERENCES events (id),
    account      TEXT    NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents <> 0),
    PRIMARY KEY (event_id, account)
) STRICT;

CREATE INDEX events_by_session ON events (session_id, seq);

CREATE TRIGGER events_are_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: record a correction instead'); END;
CREATE TRIGGER events_are_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: record a correction instead'); END;
CREATE TRIGGER postings_are_append_only_update BEFORE UPDATE ON postings
BEGIN SELECT RAISE(ABORT, 'postings are append-only'); END;
CREATE TRIGGER postings_are_append_only_delete BEFORE DELETE ON postings
BEGIN SELECT RAISE(ABORT, 'postings are append-only'); END;
CREATE TRIGGER seats_are_append_only_update BEFORE UPDATE ON seats
BEGIN SELECT RAISE(ABORT, 'seats are append-only'); END;
