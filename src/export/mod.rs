//! Pure exports: postings and results CSV, an hledger/Ledger journal, and the club backup
//! ([`ClubExport`], `scorekeeper/club@1`, validated by [`check_club_export`]). The shell
//! ([`club`]) gathers the stored sessions into [`SessionRecord`]s.

pub mod chained;
pub mod check;
pub mod club;
pub mod nights;
pub mod running;
pub mod stream;
pub mod text;

pub use check::{SessionText, check_club_export};

use std::collections::BTreeMap;
use std::fmt::Write as _;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::format::{LedgerDoc, SessionDoc};
use crate::ids::SessionId;
use crate::ledger::{KITTY, POT, Posting};
use crate::money::Money;
use crate::session::EventKind;
use crate::store::time::{day, rfc3339};

/// The format tag of a whole-club export.
pub const CLUB_FORMAT: &str = "scorekeeper/club@1";

/// When one ledger entry was recorded, and which hand it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventLine {
    /// The ledger's `seq`: the event's index + 1, or 0 for the opening ante.
    pub seq: usize,
    /// For a `hand`, its number in the session (1 for the first hand).
    pub hand_number: Option<usize>,
    /// When it was recorded.
    pub recorded_at: DateTime<Utc>,
}

/// One stored session as the exports read it.
#[derive(Debug, Clone)]
pub struct SessionRecord {
    /// The session's id in this service.
    pub id: SessionId,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// Its session document.
    pub doc: SessionDoc,
    /// Its ledger document (`replay` of `doc`).
    pub ledger: LedgerDoc,
    /// One line per entry of `ledger.events`, in `seq` order.
    pub lines: Vec<EventLine>,
}

impl SessionRecord {
    /// The line of entry `seq`, by binary search.
    fn line(&self, seq: usize) -> Option<&EventLine> {
        self.lines
            .binary_search_by_key(&seq, |l| l.seq)
            .ok()
            .and_then(|i| self.lines.get(i))
    }
}

/// The `csv` writer failed (it writes to memory: only on a bug).
#[derive(Debug, thiserror::Error)]
#[error("writing the export: {0}")]
pub struct ExportError(String);

impl From<csv::Error> for ExportError {
    fn from(e: csv::Error) -> ExportError {
        ExportError(e.to_string())
    }
}

pub(crate) fn finish(writer: csv::Writer<Vec<u8>>) -> Result<Vec<u8>, ExportError> {
    writer
        .into_inner()
        .map_err(|e| ExportError(e.error().to_string()))
}

/// The CSV header of [`postings_csv`].
pub const POSTINGS_HEADER: [&str; 7] = [
    "event",
    "hand",
    "type",
    "recorded_at",
    "account",
    "amount",
    "explanation",
];

/// One ledger entry as the postings CSV and the journal write it: the entry's `seq`,
/// `kind`, `postings` (cents) and `explanation`, its hand number and when it was recorded.
#[derive(Debug, Clone, Copy)]
pub struct EntryLine<'a> {
    /// The ledger's `seq`: the event's index + 1, or 0 for the opening ante.
    pub seq: usize,
    /// The entry's type (`hand`, `payment`, … `opening_ante`).
    pub kind: &'a str,
    /// Its postings, summing to zero.
    pub postings: &'a [Posting],
    /// The reason in words, as the ledger gives it.
    pub explanation: &'a str,
    /// For a hand, its number in the session.
    pub hand: Option<usize>,
    /// When it was recorded.
    pub recorded_at: DateTime<Utc>,
}

impl<'a> EntryLine<'a> {
    /// The line of `entry` in `session`: its hand and time from the session's lines, the
    /// session's creation time for an entry without a line.
    fn of(session: &SessionRecord, entry: &'a crate::format::LedgerEvent) -> EntryLine<'a> {
        let line = session.line(entry.seq);
        EntryLine {
            seq: entry.seq,
            kind: &entry.kind,
            postings: &entry.postings,
            explanation: &entry.explanation,
            hand: line.and_then(|l| l.hand_number),
            recorded_at: line.map_or(session.created_at, |l| l.recorded_at),
        }
    }
}

/// The postings CSV's rows of one entry (see [`postings_csv`]). Errors: the writer's.
pub fn write_postings<W: std::io::Write>(
    w: &mut csv::Writer<W>,
    entry: &EntryLine<'_>,
) -> Result<(), ExportError> {
    let index = entry.seq.checked_sub(1).map(|i| i.to_string());
    let hand = entry.hand.map(|n| n.to_string());
    let at = rfc3339(entry.recorded_at);
    for p in entry.postings {
        w.write_record([
            index.as_deref().unwrap_or(""),
            hand.as_deref().unwrap_or(""),
            entry.kind,
            &at,
            &cell(&p.account),
            &p.amount.to_string(),
            &cell(entry.explanation),
        ])?;
    }
    Ok(())
}

/// A session's postings as CSV (RFC 4180), one row per posting: `event` (0-based index,
/// empty for the ante), `hand`, `type`, `recorded_at` (RFC 3339 UTC), `account` (a name,
/// `KITTY` or `POT`), `amount` (2 decimals; each event's sum to zero), `explanation`.
pub fn postings_csv(session: &SessionRecord) -> Result<Vec<u8>, ExportError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(POSTINGS_HEADER)?;
    for entry in &session.ledger.events {
        write_postings(&mut w, &EntryLine::of(session, entry))?;
    }
    finish(w)
}

/// The CSV header of [`results_csv`].
pub const RESULTS_HEADER: [&str; 5] = ["session", "date", "game", "player", "net"];

/// The results CSV's rows of one session (see [`results_csv`]): session `id` of `game`,
/// created at `created_at`, with its ledger's `balances` (cents). Errors: the writer's.
pub fn write_results<W: std::io::Write>(
    w: &mut csv::Writer<W>,
    (id, created_at, game): (SessionId, DateTime<Utc>, &str),
    balances: &BTreeMap<String, Money>,
) -> Result<(), ExportError> {
    let date = day(created_at);
    for (account, net) in balances {
        w.write_record([
            &id.to_string(),
            date.as_str(),
            game,
            &cell(account),
            &net.to_string(),
        ])?;
    }
    Ok(())
}

/// Each session's nets as CSV, one row per ledger account: `session`, `date` (UTC day),
/// `game`, `player` (or `KITTY`/`POT`, so rows sum to zero), `net` (2 decimals).
pub fn results_csv(sessions: &[SessionRecord]) -> Result<Vec<u8>, ExportError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(RESULTS_HEADER)?;
    for s in sessions {
        let named = (s.id, s.created_at, s.ledger.game.as_str());
        write_results(&mut w, named, &s.ledger.balances)?;
    }
    finish(w)
}

/// A cell a spreadsheet will not run as a formula: a leading `=`, `+`, `-`, `@`, tab or CR
/// gets a `'` (OWASP, "CSV Injection").
pub(crate) fn cell(text: &str) -> std::borrow::Cow<'_, str> {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}").into()
    } else {
        text.into()
    }
}

/// The journal account of a ledger account (`players:Ann`, `kitty`, `pot`): whitespace runs
/// become one space (two end a name) and `;` (a comment) becomes `,`.
pub fn journal_account(account: &str) -> String {
    match account {
        KITTY => "kitty".into(),
        POT => "pot".into(),
        player => format!("players:{}", journal_text(player)),
    }
}

/// `text` safe on one journal line: whitespace and controls collapsed, `;` to `,`, trimmed.
pub(crate) fn journal_text(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| match c {
            ';' => ',',
            c if c.is_control() || c.is_whitespace() => ' ',
            c => c,
        })
        .collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An amount with its commodity (`$-0.10`, `€`, `£`, else `-0.10 CAD`), always 2 decimals.
pub fn journal_amount(amount: Money, currency: &str) -> String {
    match currency {
        "USD" => format!("${amount}"),
        "EUR" => format!("€{amount}"),
        "GBP" => format!("£{amount}"),
        code => format!("{amount} {code}"),
    }
}

/// The first lines of every [`journal`]. Exactly 2 decimals after a `.`: read as the
/// decimal mark without a directive.
pub const JOURNAL_HEAD: &str =
    "; Scorekeeper journal: one transaction per event; amounts in each session's currency.\n\n";

/// A session as its journal transactions name it: its id, game and currency.
#[derive(Debug, Clone, Copy)]
pub struct JournalSession<'a> {
    /// The session's id.
    pub id: SessionId,
    /// Its game id.
    pub game: &'a str,
    /// Its ISO currency code.
    pub currency: &'a str,
}

/// The journal transaction of one entry (see [`journal`]), appended to `out`.
pub fn write_transaction(out: &mut String, session: JournalSession<'_>, entry: &EntryLine<'_>) {
    let event = entry
        .seq
        .checked_sub(1)
        .map_or(EventKind::OpeningAnte.to_string(), |i| i.to_string());
    // `writeln!` into a String cannot fail.
    let _ = writeln!(
        out,
        "{} * {}  ; session:{}, event:{event}, type:{}, game:{}",
        day(entry.recorded_at),
        journal_text(entry.explanation),
        session.id,
        journal_text(entry.kind),
        journal_text(session.game),
    );
    for Posting { account, amount } in entry.postings {
        let _ = writeln!(
            out,
            "    {}  {}",
            journal_account(account),
            journal_amount(*amount, session.currency)
        );
    }
    out.push('\n');
}

/// An hledger/Ledger journal: one cleared transaction per ledger event, dated its UTC day,
/// tagged `session`, `event`, `type` and `game`, summing to zero, so `hledger balance`
/// equals the ledgers' balances to the cent.
pub fn journal(sessions: &[SessionRecord]) -> String {
    let mut out = String::from(JOURNAL_HEAD);
    for s in sessions {
        let named = JournalSession {
            id: s.id,
            game: &s.ledger.game,
            currency: &s.ledger.currency,
        };
        for entry in &s.ledger.events {
            write_transaction(&mut out, named, &EntryLine::of(s, entry));
        }
    }
    out
}

/// A whole club, portable (`scorekeeper/club@1`): name, roster and every session document,
/// oldest first, with record times. An import gives every session the same ledger. `S` is
/// how each session document is held ([`SessionText`]): read, or as its text while imported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClubExport<S = SessionDoc> {
    /// Always [`CLUB_FORMAT`].
    pub format: String,
    /// The club's name.
    pub name: String,
    /// The club's players, by name.
    pub players: Vec<String>,
    /// Every session of the club, oldest first.
    pub sessions: Vec<ExportedSession<S>>,
    /// The club's people (renames, merges); absent in older exports: each name its own person.
    #[serde(default)]
    pub people: Vec<ExportedPerson>,
    /// The club's nights, with their payments. Absent in older exports.
    #[serde(default)]
    pub nights: Vec<ExportedNight>,
}

/// One person of a [`ClubExport`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedPerson {
    /// The name shown everywhere (1 to 40 characters).
    pub display_name: String,
    /// The names the person sat under (the session documents' names).
    pub names: Vec<String>,
}

/// One night of a [`ClubExport`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedNight {
    /// "Thursday at Sal's" (1 to 80 characters).
    pub title: String,
    /// When it was made (RFC 3339).
    pub created_at: String,
    /// Its sessions, as positions in the export's `sessions` (from 0).
    pub sessions: Vec<usize>,
    /// The payments recorded against it, voided ones included, oldest first.
    #[serde(default)]
    pub payments: Vec<ExportedNightPayment>,
}

/// A payment of an [`ExportedNight`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedNightPayment {
    /// Who paid.
    pub payer: String,
    /// Who received.
    pub payee: String,
    /// How much, a decimal string above zero ("2.80").
    pub amount: Money,
    /// When it was recorded (RFC 3339).
    pub recorded_at: String,
    /// When it was voided, if it was (RFC 3339).
    #[serde(default)]
    pub voided_at: Option<String>,
    /// Why it was voided.
    #[serde(default)]
    pub void_reason: Option<String>,
}

/// A club export as an import reads it: each session document still its text, borrowed from
/// the body, until its turn comes.
pub type ClubImportDoc<'a> = ClubExport<&'a serde_json::value::RawValue>;

/// One session of a [`ClubExport`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedSession<S = SessionDoc> {
    /// When the session was created (RFC 3339); also the opening ante's time.
    pub created_at: String,
    /// When each event was recorded (RFC 3339); empty means "at `created_at`".
    #[serde(default)]
    pub recorded_at: Vec<String>,
    /// The session document, exactly as `GET /api/v1/sessions/{id}/export` gives it.
    pub session: S,
    /// The club's title for it ("Thursday at Sal's"), if given.
    #[serde(default)]
    pub title: Option<String>,
    /// Archived: hidden from the history list (never deleted).
    #[serde(default)]
    pub archived: bool,
}

/// The export of a club named `name` with roster `players` and `sessions` (oldest first).
pub fn club_export(name: &str, players: Vec<String>, sessions: &[SessionRecord]) -> ClubExport {
    ClubExport {
        format: CLUB_FORMAT.into(),
        name: name.into(),
        players,
        sessions: sessions
            .iter()
            .map(|s| ExportedSession {
                created_at: rfc3339(s.created_at),
                recorded_at: s
                    .lines
                    .iter()
                    .filter(|l| l.seq > 0)
                    .map(|l| rfc3339(l.recorded_at))
                    .collect(),
                session: s.doc.clone(),
                title: None,
                archived: false,
            })
            .collect(),
        people: Vec::new(),
        nights: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::format::LedgerEvent;

    fn record() -> SessionRecord {
        let doc: SessionDoc = serde_json::from_value(serde_json::json!({
            "format": "scorekeeper/session@1", "game": "auction_pitch",
            "agreements": { "stake": "0.10" }, "players": ["Ann", "Bob"], "events": []
        }))
        .unwrap();
        let mut ledger = crate::format::replay(&doc).unwrap();
        ledger.events.push(LedgerEvent {
            seq: 1,
            kind: "hand".into(),
            postings: vec![
                Posting::new("Ann", Money::from_cents(30)),
                Posting::new("Bob", Money::from_cents(-20)),
                Posting::new(KITTY, Money::from_cents(-10)),
            ],
            scores_after: None,
            explanation: "Ann made 3; \"high\"\nand low".into(),
        });
        ledger.balances.insert("Ann".into(), Money::from_cents(30));
        ledger.balances.insert("Bob".into(), Money::from_cents(-20));
        ledger.balances.insert(KITTY.into(), Money::from_cents(-10));
        SessionRecord {
            id: SessionId(7),
            created_at: crate::store::time::normalised("2026-11-20T19:00:00Z").unwrap(),
            doc,
            ledger,
            lines: vec![EventLine {
                seq: 1,
                hand_number: Some(1),
                recorded_at: crate::store::time::normalised("2026-11-21T00:10:00Z").unwrap(),
            }],
        }
    }

    #[test]
    fn postings_csv_has_a_row_per_posting_quoted_as_rfc_4180() {
        let text = String::from_utf8(postings_csv(&record()).unwrap()).unwrap();
        assert_eq!(
            text,
            "event,hand,type,recorded_at,account,amount,explanation\n\
             0,1,hand,2026-11-21T00:10:00Z,Ann,0.30,\"Ann made 3; \"\"high\"\"\nand low\"\n\
             0,1,hand,2026-11-21T00:10:00Z,Bob,-0.20,\"Ann made 3; \"\"high\"\"\nand low\"\n\
             0,1,hand,2026-11-21T00:10:00Z,KITTY,-0.10,\"Ann made 3; \"\"high\"\"\nand low\"\n"
        );
    }

    #[test]
    fn results_csv_has_a_row_per_account_and_session() {
        let text = String::from_utf8(results_csv(&[record()]).unwrap()).unwrap();
        assert_eq!(
            text,
            "session,date,game,player,net\n\
             7,2026-11-20,auction_pitch,Ann,0.30\n\
             7,2026-11-20,auction_pitch,Bob,-0.20\n\
             7,2026-11-20,auction_pitch,KITTY,-0.10\n"
        );
    }

    #[test]
    fn journal_escapes_the_description_and_balances_each_transaction() {
        let text = journal(&[record()]);
        assert!(text.contains(
            "2026-11-21 * Ann made 3, \"high\" and low  ; session:7, event:0, type:hand, game:auction_pitch\n\
             \x20   players:Ann  $0.30\n\
             \x20   players:Bob  $-0.20\n\
             \x20   kitty  $-0.10\n"
        ), "{text}");
    }

    #[test]
    fn csv_cells_from_the_table_are_never_formulas() {
        assert_eq!(cell("=1+1"), "'=1+1");
        assert_eq!(cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(cell("Ann"), "Ann");
    }

    #[test]
    fn accounts_and_amounts_read_as_the_journal_syntax_wants() {
        assert_eq!(journal_account("Ann  Lee\t;x"), "players:Ann Lee ,x");
        assert_eq!(journal_account(POT), "pot");
        assert_eq!(journal_amount(Money::from_cents(-5), "USD"), "$-0.05");
        assert_eq!(journal_amount(Money::from_cents(1234), "CAD"), "12.34 CAD");
    }
}
