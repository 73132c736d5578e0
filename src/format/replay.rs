//! `replay`: a session document in, its ledger document out. Pure.

use super::{LEDGER_FORMAT, LedgerDoc, LedgerEvent, SESSION_FORMAT, SessionDoc};
use crate::ledger::settle_up::fewest_transfers;
use crate::money::Money;
use crate::registry;
use crate::rules::{self, GameInfo};
pub use crate::session::Refusal;
use crate::session::{Fold, Row};

/// Replays every event of `doc` under its game's rules and returns the ledger document.
/// Errors: the first refused field, with the event index when an event is at fault; nothing
/// partial is returned.
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

/// [`replay`], also returning where the table stands after the last event (for the next
/// hand's form).
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
    if doc.format != SESSION_FORMAT {
        return Err(Refusal::document(
            "format",
            format!("\"{}\" is not {SESSION_FORMAT}", doc.format),
        ));
    }
    let game = registry::game(&doc.game).ok_or_else(|| {
        Refusal::document(
            "game",
            format!(
                "\"{}\" is not a game this service keeps; known: {}",
                doc.game,
                registry::known()
            ),
        )
    })?;
    check_currency(&doc.currency)?;
    check_players(&doc.players, game)?;
    let mut fold = Fold::start(
        game,
        &doc.agreements,
        &doc.players,
        doc.opening_scores.as_ref(),
    )?;
    for (index, raw) in doc.events.iter().enumerate() {
        fold.apply(index, raw)?;
    }
    Ok(fold)
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

/// Brings `ledger`, the ledger of an earlier state of `fold`, up to `fold`: appends the
/// entries of the rows it lacks and recomputes the standing parts (scores, checks, games,
/// balances, kitty, settlement). The cost is that of the new rows and the standing, not of
/// the history: a ledger entry never changes once written (an amendment is a new row), so
/// the entries already there stay as they are. The result equals [`ledger`] of the same
/// document, which the property tests check.
pub fn extend_ledger(ledger: &mut LedgerDoc, fold: &Fold) {
    let have = ledger.events.len();
    ledger
        .events
        .extend(fold.rows().iter().skip(have).map(ledger_event));
    let balances = fold.balances();
    let open: Vec<(String, Money)> = balances
        .as_map()
        .iter()
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    ledger.scores = fold.engine().scores();
    ledger.checks = fold.engine().checks();
    ledger.games = fold.engine().games();
    ledger.balances = balances.as_map().clone();
    ledger.kitty = balances.kitty();
    ledger.settlement = fewest_transfers(&open);
}

fn ledger_event(row: &Row) -> LedgerEvent {
    LedgerEvent {
        seq: row.seq(),
        kind: row.kind.clone(),
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
                "{} seats {fewest} to {most} players ({}), and {} are listed",
                game.name,
                game.rules,
                players.len()
            ),
        ));
    }
    for (i, name) in players.iter().enumerate() {
        rules::check_name(name)
            .map_err(|m| Refusal::document("players", format!("{name:?}: {m}")))?;
        let key = rules::table::name_key(name);
        if let Some(same) = players[..i]
            .iter()
            .find(|p| rules::table::name_key(p) == key)
        {
            let message = if same == name {
                format!("{name} is listed twice")
            } else {
                format!("{name} and {same} are one name at the table; tell them apart")
            };
            return Err(Refusal::document("players", message));
        }
    }
    Ok(())
}
