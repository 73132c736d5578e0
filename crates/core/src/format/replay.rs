//! `replay`: a session document in, its ledger document out. Pure.

use super::{LEDGER_FORMAT, LedgerDoc, LedgerEvent, SESSION_FORMAT, SessionDoc};
use crate::ledger::Balances;
use crate::ledger::settle_up::Transfer;
use crate::ledger::settle_up::fewest_transfers_preferring;
use crate::money::Money;
use crate::rules::{self, GameInfo};
pub use crate::session::Refusal;
use crate::session::{Fold, Row, Tip};
use serde_json::Value;
use std::collections::BTreeMap;

/// Replays every event of `doc` into the ledger document. Errors: the first refusal.
pub fn replay(doc: &SessionDoc) -> Result<LedgerDoc, Refusal> {
    fold(doc).map(|f| ledger(doc, &f))
}

/// Where the table stands after the last event: who is seated, and who deals next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// The players seated now, clockwise.
    pub seated: Vec<String>,
    /// Who deals the next hand by the game's rules (the first seat before any hand).
    pub next_dealer: Option<String>,
}

/// [`replay`], also returning where the table stands (for the next hand's form).
pub fn replay_at_table(doc: &SessionDoc) -> Result<(LedgerDoc, Standing), Refusal> {
    let f = fold(doc)?;
    let standing = Standing {
        seated: f.table().seated().to_vec(),
        next_dealer: f.next_dealer(),
    };
    Ok((ledger(doc, &f), standing))
}

/// Checks the document and folds every event. Errors as [`replay`].
pub fn fold(doc: &SessionDoc) -> Result<Fold, Refusal> {
    let mut fold = start(doc)?;
    fold.reserve(doc.events.len());
    for (index, raw) in doc.events.iter().enumerate() {
        fold.apply(index, raw)?;
    }
    Ok(fold)
}

/// Folds `doc` to its [`Tip`], keeping history only when an event needs it.
pub fn tip(doc: &SessionDoc) -> Result<Tip, Refusal> {
    if doc.events.iter().any(Tip::needs_history) {
        // Only the sheet's window stays whole.
        let mut fold = start(doc)?;
        fold.reserve(doc.events.len());
        for (index, raw) in doc.events.iter().enumerate() {
            fold.apply(index, raw)?;
            fold.slim_older(crate::session::window::SHEET_LINES);
        }
        return Tip::of(&fold);
    }
    let mut tip = Tip::of(&start(doc)?)?;
    for raw in &doc.events {
        tip.apply(raw)?;
    }
    Ok(tip)
}

/// Checks the document's header and starts its fold (the opening ante, no event).
pub fn start(doc: &SessionDoc) -> Result<Fold, Refusal> {
    if doc.format != SESSION_FORMAT {
        return Err(Refusal::document(
            "format",
            format!("\"{}\" is not {SESSION_FORMAT}", doc.format),
        ));
    }
    let game = crate::rules::game(&doc.game).ok_or_else(|| {
        Refusal::document(
            "game",
            format!(
                "\"{}\" is not a game this service keeps; known: {}",
                doc.game,
                crate::rules::known()
            ),
        )
    })?;
    check_currency(&doc.currency)?;
    check_players(&doc.players, game)?;
    Fold::start(
        game,
        &doc.agreements,
        &doc.players,
        doc.opening_scores.as_ref(),
    )
}

/// The ledger document of a folded session.
pub fn ledger(doc: &SessionDoc, fold: &Fold) -> LedgerDoc {
    let mut ledger = LedgerDoc {
        format: LEDGER_FORMAT,
        game: doc.game.clone(),
        currency: doc.currency.clone(),
        events: Vec::with_capacity(fold.rows().len()),
        scores: None,
        checks: None,
        games: Vec::new(),
        balances: Default::default(),
        kitty: Money::ZERO,
        settlement: Vec::new(),
    };
    extend_ledger(&mut ledger, fold);
    ledger
}

/// Brings `ledger` up to `fold`: appends new entries (old ones never change), recomputes the rest.
pub fn extend_ledger(ledger: &mut LedgerDoc, fold: &Fold) {
    let have = ledger.events.len();
    ledger
        .events
        .extend(fold.rows().iter().skip(have).map(ledger_event));
    let balances = fold.balances();
    ledger.scores = fold.engine().scores();
    ledger.checks = fold.engine().checks();
    ledger.games = fold.games();
    ledger.balances = balances.as_map().clone();
    ledger.kitty = balances.kitty();
    ledger.settlement = settlement(balances, fold.engine());
}

/// `tip`'s ledger document without entries; with the stored entries it equals [`ledger`].
pub fn ledger_standing(game: &str, currency: &str, tip: &Tip) -> LedgerDoc {
    standing_with(game, currency, tip, tip.games())
}

/// [`ledger_standing`] as JSON text, its `games` written from the records the tip holds
/// ([`Tip::games_json`]) rather than read into values: a session where every deal is a
/// game writes its thousands of games without holding them all read. Errors: serde's.
pub fn ledger_standing_json(game: &str, currency: &str, tip: &Tip) -> serde_json::Result<String> {
    let json = serde_json::to_string(&standing_with(game, currency, tip, Vec::new()))?;
    // The fields after `games` (balances, kitty, settlement) hold no array named so: the
    // last `"games":[]` is the field itself.
    Ok(match json.rsplit_once("\"games\":[]") {
        Some((head, tail)) => format!("{head}\"games\":{}{tail}", tip.games_json()),
        None => json,
    })
}

/// [`ledger_standing`] with `games` for its games.
fn standing_with(
    game: &str,
    currency: &str,
    tip: &Tip,
    games: Vec<crate::rules::FinishedGame>,
) -> LedgerDoc {
    let balances = tip.balances();
    LedgerDoc {
        format: LEDGER_FORMAT,
        game: game.to_string(),
        currency: currency.to_string(),
        events: Vec::new(),
        scores: tip.engine().scores(),
        checks: tip.engine().checks(),
        games,
        balances: balances.as_map().clone(),
        kitty: balances.kitty(),
        settlement: settlement(balances, tip.engine()),
    }
}

/// Where a session stands: its ledger's standing parts (cents), without the event list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// How many events the session holds.
    pub event_count: usize,
    /// Net money of every player (and `KITTY` when the game has one), summing to zero.
    pub balances: BTreeMap<String, Money>,
    /// The kitty's balance.
    pub kitty: Money,
    /// Running scores of the game in progress, as the ledger's `scores`.
    pub scores: Option<Value>,
    /// Running check totals, as the ledger's `checks`.
    pub checks: Option<Value>,
    /// The settle-up now: while open, after a `close` now (never "pays KITTY"); else `settlement`.
    pub settlement: Vec<Transfer>,
}

impl Position {
    /// The position after `tip`'s last event ([`Tip::close_preview`] while open).
    pub fn of_tip(tip: &Tip) -> Position {
        let balances = tip.balances();
        let settlement = match tip.close_preview() {
            Some((closed, _)) => settlement(&closed, tip.engine()),
            None => settlement(balances, tip.engine()),
        };
        Position {
            event_count: tip.events(),
            balances: balances.as_map().clone(),
            kitty: balances.kitty(),
            scores: tip.engine().scores(),
            checks: tip.engine().checks(),
            settlement,
        }
    }
}

/// The fewest transfers, along [`crate::rules::Engine::settle_pairs`] where possible.
fn settlement(balances: &Balances, engine: &dyn crate::rules::Engine) -> Vec<Transfer> {
    let open: Vec<(String, Money)> = balances
        .as_map()
        .iter()
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    fewest_transfers_preferring(&open, &engine.settle_pairs())
}

/// The ledger document's entry for one row of the fold.
pub fn ledger_event(row: &Row) -> LedgerEvent {
    LedgerEvent {
        seq: row.seq(),
        kind: row.kind.to_string(),
        postings: row.postings.clone(),
        scores_after: row.scores_after.clone(),
        explanation: row.cited_explanation(),
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

fn check_players(players: &[String], game: &GameInfo) -> Result<(), Refusal> {
    let (fewest, most) = game.seats;
    if players.len() < fewest || players.len() > most {
        return Err(Refusal::document(
            "players",
            format!(
                "{} seats {} players, and {} listed",
                game.name,
                if fewest == most {
                    format!("exactly {fewest}")
                } else {
                    format!("{fewest} to {most}")
                },
                match players.len() {
                    1 => "1 is".to_string(),
                    n => format!("{n} are"),
                }
            ),
        )
        .citing(Some(game.rules.to_string())));
    }
    for (i, name) in players.iter().enumerate() {
        rules::check_name(name)
            .map_err(|m| Refusal::document("players", format!("{name:?}: {m}")))?;
        if let Some(same) = players[..i]
            .iter()
            .find(|p| *p == name || rules::table::look_alike(p, name))
        {
            let message = if same == name {
                format!("{name} is listed twice")
            } else {
                format!("{name} and {same} look like one name at the table; tell them apart")
            };
            return Err(Refusal::document("players", message));
        }
    }
    Ok(())
}

/// [`replay`] as pretty JSON (`serde_json::to_vec_pretty`) for `scorekeeper replay`; without
/// history one thread folds while this one writes, keeping nothing per event.
pub fn replay_json(doc: &SessionDoc) -> Result<Vec<u8>, Refusal> {
    let internal =
        |e: serde_json::Error| Refusal::document("ledger", format!("internal error: {e}"));
    if doc.events.iter().any(Tip::needs_history) {
        let ledger = replay(doc)?;
        return serde_json::to_vec_pretty(&ledger).map_err(internal);
    }
    let mut tip = Tip::of(&start(doc)?)?;
    // Sized for the whole document: growing by doubling would copy it again and again.
    let mut out = Vec::with_capacity(
        doc.events
            .len()
            .saturating_mul(ENTRY_BYTES)
            .saturating_add(4096)
            .min(1 << 30),
    );
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::sync_channel::<Vec<LedgerEvent>>(BATCHES);
        let folder = scope.spawn(move || -> Result<Tip, Refusal> {
            let mut batch: Vec<LedgerEvent> =
                tip.last_row().map(ledger_event).into_iter().collect();
            for raw in &doc.events {
                tip.apply(raw)?;
                batch.extend(tip.last_row().map(ledger_event));
                if batch.len() >= BATCH
                    && send
                        .send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)))
                        .is_err()
                {
                    // The writer stopped: it has its own error to tell.
                    return Ok(tip);
                }
            }
            // A writer already gone has its own error to tell.
            let _ = send.send(batch);
            Ok(tip)
        });
        let streamed = Streamed {
            doc,
            entries: receive,
            folder: std::cell::RefCell::new(Some(folder)),
            refused: std::cell::RefCell::new(None),
        };
        let written = serde_json::to_writer_pretty(&mut out, &streamed);
        // The fold's refusal, if any, comes before whatever writing made of it.
        if let Some(refusal) = streamed.refused.into_inner() {
            return Err(refusal);
        }
        if let Some(folder) = streamed.folder.into_inner() {
            drop(streamed.entries);
            folder
                .join()
                .map_err(|_| Refusal::document("ledger", "internal error: the fold stopped"))??;
        }
        written.map_err(internal)
    })?;
    Ok(out)
}

/// The bytes [`replay_json`] reserves per entry (about a pretty-printed pinochle hand).
const ENTRY_BYTES: usize = 600;
/// How many entries the fold hands over at once, and how many such batches may wait.
const BATCH: usize = 512;
const BATCHES: usize = 16;

/// The ledger written as the fold runs; a refusal lands in `refused` and stops it.
struct Streamed<'scope, 'env> {
    doc: &'env SessionDoc,
    entries: std::sync::mpsc::Receiver<Vec<LedgerEvent>>,
    folder: std::cell::RefCell<Option<std::thread::ScopedJoinHandle<'scope, Result<Tip, Refusal>>>>,
    refused: std::cell::RefCell<Option<Refusal>>,
}

/// The `events` of a [`Streamed`] ledger.
struct StreamedEvents<'a, 'scope, 'env>(&'a Streamed<'scope, 'env>);

impl serde::Serialize for StreamedEvents<'_, '_, '_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(None)?;
        // Until the fold's thread has sent its last batch (or stopped at a refusal).
        for batch in &self.0.entries {
            for entry in &batch {
                seq.serialize_element(entry)?;
            }
        }
        seq.end()
    }
}

impl serde::Serialize for Streamed<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeStruct};
        // The fields and their order are `LedgerDoc`'s.
        let mut out = serializer.serialize_struct("LedgerDoc", 10)?;
        out.serialize_field("format", LEDGER_FORMAT)?;
        out.serialize_field("game", &self.doc.game)?;
        out.serialize_field("currency", &self.doc.currency)?;
        out.serialize_field("events", &StreamedEvents(self))?;
        let folded = self
            .folder
            .borrow_mut()
            .take()
            .map(|f| f.join())
            .ok_or_else(|| S::Error::custom("the fold was already joined"))?
            .map_err(|_| S::Error::custom("the fold stopped"))?;
        let tip = match folded {
            Ok(tip) => tip,
            Err(refusal) => {
                let message = refusal.to_string();
                *self.refused.borrow_mut() = Some(refusal);
                return Err(S::Error::custom(message));
            }
        };
        let balances = tip.balances();
        out.serialize_field("scores", &tip.engine().scores())?;
        out.serialize_field("checks", &tip.engine().checks())?;
        out.serialize_field("games", &tip.games())?;
        out.serialize_field("balances", balances.as_map())?;
        out.serialize_field("kitty", &balances.kitty())?;
        out.serialize_field("settlement", &settlement(balances, tip.engine()))?;
        out.end()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use serde_json::json;

    fn doc(events: Value) -> SessionDoc {
        serde_json::from_value(json!({
            "format": "scorekeeper/session@1", "game": "auction_pinochle",
            "agreements": {"stake": "0.05", "kitty": "pot"}, "players": ["A", "B", "C"],
            "events": events
        }))
        .unwrap()
    }

    fn hand(i: usize) -> Value {
        let p = ["A", "B", "C"];
        json!({"type": "hand", "dealer": p[i % 3], "bidder": p[(i + 1) % 3],
               "bid": 250 + 50 * (i % 5), "trump": "hearts",
               "outcome": if i % 4 == 3 { "failed" } else { "made" }})
    }

    /// Written while folded, across many batches, the ledger is byte for byte the
    /// document's ledger pretty-printed, and the tip is the whole fold's.
    #[test]
    fn the_streamed_ledger_is_the_ledger_document() {
        let d = doc(Value::Array((0..2 * BATCH + 7).map(hand).collect()));
        let expected = serde_json::to_vec_pretty(&replay(&d).unwrap()).unwrap();
        assert_eq!(replay_json(&d).unwrap(), expected);
        let whole = fold(&d).unwrap();
        let t = tip(&d).unwrap();
        assert_eq!(t.events(), d.events.len());
        assert_eq!(t.balances(), whole.balances());
        let ledger = replay(&d).unwrap();
        let at = Position::of_tip(&t);
        assert_eq!(at, Position::of_tip(&Tip::of(&whole).unwrap()));
        assert_eq!(
            (
                at.event_count,
                &at.balances,
                at.kitty,
                &at.scores,
                &at.checks
            ),
            (
                d.events.len(),
                &ledger.balances,
                ledger.kitty,
                &ledger.scores,
                &ledger.checks
            )
        );
    }

    /// With an amendment (which needs the history) it is the same document.
    #[test]
    fn a_document_with_a_correction_is_written_the_same() {
        let mut events: Vec<Value> = (0..10).map(hand).collect();
        events.push(json!({"type": "correction", "event": 2, "replacement": hand(7)}));
        events.push(hand(11));
        let d = doc(Value::Array(events));
        let expected = serde_json::to_vec_pretty(&replay(&d).unwrap()).unwrap();
        assert_eq!(replay_json(&d).unwrap(), expected);
    }

    /// A refused event far into the document is refused as `replay` refuses it, after
    /// entries were already handed over for writing.
    #[test]
    fn a_refusal_while_writing_is_the_replays() {
        let mut events: Vec<Value> = (0..BATCH * 3).map(hand).collect();
        events.push(json!({"type": "hand", "dealer": "Nobody"}));
        events.push(hand(1));
        let d = doc(Value::Array(events));
        assert_eq!(replay_json(&d).unwrap_err(), replay(&d).unwrap_err());
    }
}
