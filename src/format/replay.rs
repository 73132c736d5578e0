//! `replay`: a session document in, its ledger document out. Pure.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::corrections;
use super::{LEDGER_FORMAT, LedgerDoc, LedgerEvent, SESSION_FORMAT, SessionDoc};
use crate::ledger::settle_up::fewest_transfers;
use crate::ledger::{self, Balances, KITTY, Postings};
use crate::money::Money;
use crate::rules::{self, Ctx, Entry, RuleError, Table, fields};

/// Why a session document was refused: the event's 0-based index (if the fault is in an
/// event), the field, and the reason with its rule. Shown as
/// `event 3: bid: 240 is below the minimum 250 (rules §1.1)`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{field}: {message}", .event_index.map(|i| format!("event {i}: ")).unwrap_or_default())]
pub struct Refusal {
    /// The position of the refused event in `events`, if an event is at fault.
    pub event_index: Option<usize>,
    /// The field at fault (`bid`, `agreements.stake`, `players`).
    pub field: String,
    /// What is wrong and which rule says so.
    pub message: String,
}

impl Refusal {
    pub(super) fn document(field: impl Into<String>, message: impl Into<String>) -> Refusal {
        Refusal {
            event_index: None,
            field: field.into(),
            message: message.into(),
        }
    }

    pub(super) fn from_rule(err: RuleError, event_index: Option<usize>) -> Refusal {
        Refusal {
            event_index,
            field: err.field,
            message: err.message,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Payment {
    #[serde(rename = "type")]
    _kind: String,
    from: String,
    to: String,
    amount: Money,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Close {
    #[serde(rename = "type")]
    _kind: String,
}

/// Replays every event of `doc` under its game's rules and returns the ledger document.
/// Errors: the first refused field, with the event index when an event is at fault; nothing
/// partial is returned.
pub fn replay(doc: &SessionDoc) -> Result<LedgerDoc, Refusal> {
    replay_at_table(doc).map(|(ledger, _)| ledger)
}

/// Where the table stands after the last event: who is seated, and who deals next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// The players seated now, clockwise.
    pub seated: Vec<String>,
    /// Who deals the next hand by the game's rules (the first seat before any hand).
    pub next_dealer: Option<String>,
}

/// [`replay`], also returning where the table stands after the last event (for the next
/// hand's form).
pub fn replay_at_table(doc: &SessionDoc) -> Result<(LedgerDoc, Standing), Refusal> {
    if doc.format != SESSION_FORMAT {
        return Err(Refusal::document(
            "format",
            format!("\"{}\" is not {SESSION_FORMAT}", doc.format),
        ));
    }
    let game = rules::find(&doc.game).ok_or_else(|| {
        let known: Vec<&str> = rules::GAMES.iter().map(|g| g.id).collect();
        Refusal::document(
            "game",
            format!(
                "\"{}\" is not a game this service keeps; known: {}",
                doc.game,
                known.join(", ")
            ),
        )
    })?;
    check_currency(&doc.currency)?;
    check_players(&doc.players, game)?;
    let (mut run, opening) = Run::start(doc, game)?;
    let mut events = Vec::new();
    if let Some(opening) = opening {
        events.push(ledger_event(0, "opening_ante", opening));
    }
    // The events as they stand after corrections: (index in `doc.events`, event).
    let mut effective: Vec<(usize, Value)> = Vec::new();
    for (index, raw) in doc.events.iter().enumerate() {
        let (object, kind) = event_object(raw, index)?;
        let entry = if corrections::is_correction(kind) {
            let (corrected, entry) =
                corrections::apply(doc, game, &run, &mut effective, index, kind, object)?;
            run = corrected;
            entry
        } else {
            let entry = run.step(index, kind, object)?;
            effective.push((index, raw.clone()));
            entry
        };
        events.push(ledger_event(index + 1, kind, entry));
    }
    let open: Vec<(String, Money)> = run
        .balances
        .as_map()
        .iter()
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    let standing = Standing {
        seated: run.table.seated().to_vec(),
        next_dealer: run
            .engine
            .next_dealer(&run.table)
            .or_else(|| run.table.seated().first().cloned()),
    };
    let ledger = LedgerDoc {
        format: LEDGER_FORMAT,
        game: doc.game.clone(),
        currency: doc.currency.clone(),
        events,
        scores: run.engine.scores(),
        checks: run.engine.checks(),
        games: run.engine.games(),
        balances: run.balances.as_map().clone(),
        kitty: run.balances.kitty(),
        settlement: fewest_transfers(&open),
    };
    Ok((ledger, standing))
}

/// An event as a JSON object with its type. Errors name `event` or `type`.
pub(super) fn event_object(
    raw: &Value,
    index: usize,
) -> Result<(&Map<String, Value>, &str), Refusal> {
    let object = raw.as_object().ok_or_else(|| Refusal {
        event_index: Some(index),
        field: "event".into(),
        message: "an event is a JSON object".into(),
    })?;
    let kind = object
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| Refusal {
            event_index: Some(index),
            field: "type".into(),
            message: "every event has a type (hand, payment, close, …)".into(),
        })?;
    Ok((object, kind))
}

/// One pass of a game's rules over events: the engine, the seating and the balances.
pub(super) struct Run {
    pub(super) engine: Box<dyn rules::GameTable>,
    pub(super) table: Table,
    pub(super) balances: Balances,
    closed_at: Option<usize>,
}

impl Run {
    /// A fresh table for `doc` and its opening entry (the kitty's opening ante), if any.
    pub(super) fn start(
        doc: &SessionDoc,
        game: &rules::Game,
    ) -> Result<(Run, Option<Entry>), Refusal> {
        let engine = (game.start)(&doc.agreements, &doc.players, doc.opening_scores.as_ref())
            .map_err(|e| Refusal::from_rule(e, None))?;
        let mut run = Run {
            engine,
            table: Table::new(&doc.players),
            balances: Balances::default(),
            closed_at: None,
        };
        for p in &doc.players {
            run.balances.open(p);
        }
        if run.engine.has_kitty() {
            run.balances.open(KITTY);
        }
        let mut ctx = Ctx {
            table: &mut run.table,
            balances: &run.balances,
        };
        let opening = run.engine.opening(&mut ctx);
        if let Some(entry) = &opening {
            check_zero_sum(entry, None)?;
            run.balances.apply(&entry.postings);
        }
        Ok((run, opening))
    }

    /// Applies the event at `index` and posts its money. Errors: the rules' refusal, at
    /// `index`; on error the run must be dropped.
    pub(super) fn step(
        &mut self,
        index: usize,
        kind: &str,
        object: &Map<String, Value>,
    ) -> Result<Entry, Refusal> {
        let mut ctx = Ctx {
            table: &mut self.table,
            balances: &self.balances,
        };
        let entry = apply_one(self.engine.as_mut(), &mut ctx, kind, object, self.closed_at)
            .map_err(|e| Refusal::from_rule(e, Some(index)))?;
        check_zero_sum(&entry, Some(index))?;
        for account in self.table.everyone() {
            self.balances.open(account);
        }
        self.balances.apply(&entry.postings);
        if kind == "close" {
            self.closed_at = Some(index);
        }
        Ok(entry)
    }

    /// The index of the `close` event, once the sitting is closed.
    pub(super) fn closed_at(&self) -> Option<usize> {
        self.closed_at
    }
}

/// The common events (`payment`, `close`) and the game's own. After `close` only a
/// `payment` may follow: money handed over when the table settles up.
fn apply_one(
    engine: &mut dyn rules::GameTable,
    ctx: &mut Ctx<'_>,
    kind: &str,
    object: &Map<String, Value>,
    closed_at: Option<usize>,
) -> Result<Entry, RuleError> {
    if let Some(at) = closed_at
        && kind != "payment"
    {
        return Err(RuleError::new(
            "type",
            format!(
                "the sitting was closed by event {at}; only payments may follow a close (session-format)"
            ),
        ));
    }
    match kind {
        "payment" => payment(engine.has_kitty(), ctx, object),
        "close" => {
            let _: Close = fields::read(object)?;
            engine.close(ctx)
        }
        _ => engine.apply(ctx, kind, object),
    }
}

/// `payment`: money really handed over from one account to another, which moves both
/// balances toward zero (`design/session-format.md`).
fn payment(
    has_kitty: bool,
    ctx: &mut Ctx<'_>,
    object: &Map<String, Value>,
) -> Result<Entry, RuleError> {
    let p: Payment = fields::read(object)?;
    let known = |name: &str| ctx.table.has_account(name) || (has_kitty && name == KITTY);
    if !known(&p.from) {
        return Err(RuleError::new(
            "from",
            format!("{} has no account at this table", p.from),
        ));
    }
    if !known(&p.to) {
        return Err(RuleError::new(
            "to",
            format!("{} has no account at this table", p.to),
        ));
    }
    if p.from == p.to {
        return Err(RuleError::new(
            "to",
            "a payment goes from one account to another",
        ));
    }
    if p.amount.cents() <= 0 {
        return Err(RuleError::new(
            "amount",
            format!("{} must be more than zero", p.amount),
        ));
    }
    let mut postings = Postings::new();
    postings.transfer(&p.to, &p.from, p.amount);
    Ok(Entry::new(
        postings.into_vec(),
        format!("{} paid {} {}", p.from, p.to, p.amount),
    ))
}

fn check_zero_sum(entry: &Entry, index: Option<usize>) -> Result<(), Refusal> {
    let sum = ledger::sum(&entry.postings);
    if sum.is_zero() {
        Ok(())
    } else {
        Err(Refusal {
            event_index: index,
            field: "type".into(),
            message: format!("internal error: the postings sum to {sum}, not zero"),
        })
    }
}

fn ledger_event(seq: usize, kind: &str, entry: Entry) -> LedgerEvent {
    LedgerEvent {
        seq,
        kind: kind.to_string(),
        postings: entry.postings,
        scores_after: entry.scores_after,
        explanation: entry.explanation,
    }
}

fn check_currency(currency: &str) -> Result<(), Refusal> {
    if currency.len() == 3 && currency.chars().all(|c| c.is_ascii_uppercase()) {
        Ok(())
    } else {
        Err(Refusal::document(
            "currency",
            format!("\"{currency}\" is not a three-letter currency code such as \"USD\""),
        ))
    }
}

fn check_players(players: &[String], game: &rules::Game) -> Result<(), Refusal> {
    let (fewest, most) = game.seats;
    if players.len() < fewest || players.len() > most {
        return Err(Refusal::document(
            "players",
            format!(
                "{} seats {fewest} to {most} players ({}), and {} are listed",
                game.name,
                game.rules,
                players.len()
            ),
        ));
    }
    for (i, name) in players.iter().enumerate() {
        rules::auction_pinochle::check_name(name)
            .map_err(|m| Refusal::document("players", format!("{name:?}: {m}")))?;
        if name.trim() != name {
            return Err(Refusal::document(
                "players",
                format!("{name:?}: a name does not start or end with a space"),
            ));
        }
        if players[..i].contains(name) {
            return Err(Refusal::document(
                "players",
                format!("{name} is listed twice"),
            ));
        }
    }
    Ok(())
}
