-- Nights (issue 12 item 7): sessions a club played the same evening grouped as one night,
-- settled up once across all of them. The sessions' own events and postings stay the record
-- of play; a night payment is money handed over against the night as a whole, kept here.

CREATE TABLE nights (
    id         INTEGER PRIMARY KEY,
    club_id    INTEGER NOT NULL REFERENCES clubs (id),
    title      TEXT    NOT NULL CHECK (length(title) BETWEEN 1 AND 80),
    created_at TEXT    NOT NULL
) STRICT;
CREATE INDEX nights_by_club ON nights (club_id, id);

-- A session belongs to at most one night: the key is the session.
CREATE TABLE night_sessions (
    session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
    night_id   INTEGER NOT NULL REFERENCES nights (id)
) STRICT;
CREATE INDEX night_sessions_by_night ON night_sessions (night_id, session_id);

-- Money handed over against a night: `payer` gave `payee` `amount_cents`. A mistaken
-- payment is voided (with when and why), never deleted.
CREATE TABLE night_payments (
    id           INTEGER PRIMARY KEY,
    night_id     INTEGER NOT NULL REFERENCES nights (id),
    payer        TEXT    NOT NULL CHECK (length(payer) BETWEEN 1 AND 40),
    payee        TEXT    NOT NULL CHECK (length(payee) BETWEEN 1 AND 40),
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    recorded_at  TEXT    NOT NULL,
    voided_at    TEXT,
    void_reason  TEXT,
    CHECK (payer <> payee)
) STRICT;
CREATE INDEX night_payments_by_night ON night_payments (night_id, id);
