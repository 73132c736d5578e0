//! The session fold: one pass over a session's events keeping what the ledger and the
//! score sheet need, corrections included. Pure and cloneable.
//!
//! The state before every [`CHECKPOINT`]th standing event is kept, so a `void` or
//! `correction` of event N replays from the nearest kept state and posts only the
//! difference; the original stays, struck. A correction's replay that meets a kept state
//! again but for the balances takes the rest as it stands (`rejoin.rs`). The same pass
//! records struck rows, which event finished which game, and which game ends an amendment
//! changed.

/// The accessors a [`Fold`] and its [`Tip`] share, read from the core at `$core` (a field
/// path: `core`, or `tail.core`).
macro_rules! core_accessors {
    ($($core:ident).+) => {
        /// How many games are finished in the session as it stands.
        pub fn games_finished(&self) -> usize {
            self.$($core).+.finished.len()
        }

        /// The ledger's record of each finished game (`games`), in order.
        pub fn games(&self) -> Vec<crate::rules::FinishedGame> {
            self.$($core).+.finished.records()
        }

        /// The last game finished, kept whole; the earlier ones may be records only.
        pub fn last_finished(&self) -> Option<&Finish> {
            self.$($core).+.finished.last()
        }

        /// The engine as it stands after the last event.
        pub fn engine(&self) -> &dyn crate::rules::Engine {
            self.$($core).+.engine.as_ref()
        }

        /// The seating after the last event.
        pub fn table(&self) -> &crate::rules::Table {
            &self.$($core).+.table
        }

        /// Every balance in cents, the kitty's included.
        pub fn balances(&self) -> &crate::ledger::Balances {
            &self.$($core).+.balances
        }

        /// The index of the `close`, once the sitting is closed.
        pub fn closed_at(&self) -> Option<usize> {
            self.$($core).+.closed_at
        }

        /// Who deals the next hand by the game's rules (the first seat before any hand).
        pub fn next_dealer(&self) -> Option<String> {
            self.$($core).+
                .engine
                .next_dealer(&self.$($core).+.table)
                .or_else(|| self.$($core).+.table.seated().first().cloned())
        }
    };
}

mod afresh;
mod amend;
mod counted;
mod entry;
mod games;
mod kind;
mod numbers;
mod payment;
mod preview;
mod refusal;
mod rejoin;
mod reopen;
mod rows;
pub mod sheet;
mod standing;
mod tail;
mod tip;
pub mod why;
pub mod window;

pub use counted::{Counted, Taken};
pub use entry::{Entry, NewEvent};
pub use kind::{EventKind, GameKind};
pub use numbers::HandNumbers;
pub use refusal::Refusal;
pub use rows::{Amend, Change, Row, ShownEnd};
pub use tail::TAIL;
pub use tip::Tip;

use entry::Read;
use games::Games;
use payment::payment;
use rows::row;
use standing::Standing;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::ledger::{Balances, KITTY, Posting};
use crate::rules::{
    Ctx, Engine, FinishedGame, GameEnd, GameInfo, Outcome, RuleError, SheetLine, Table, fields,
};

impl Clone for Box<dyn Engine> {
    fn clone(&self) -> Box<dyn Engine> {
        self.clone_box()
    }
}

/// A game finished in the session: its event, ledger record, closing row and payments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finish {
    /// The 0-based index of the event that finished it (a replacement counts as its target).
    pub event: usize,
    /// The ledger's record (`games`).
    pub game: FinishedGame,
    /// The closing row.
    pub end: GameEnd,
    /// The payments, in cents.
    pub postings: Vec<Posting>,
}

/// The state after some events: engine, seating, balances (cents), close, games finished.
#[derive(Clone)]
struct Core {
    engine: Box<dyn Engine>,
    table: Table,
    balances: Balances,
    closed_at: Option<usize>,
    finished: Games,
    /// The game's meld table, for a hand's `meld_detail`; `None` without meld.
    meld: Option<&'static crate::rules::meld::MeldRules>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Close {
    #[serde(rename = "type")]
    _kind: String,
}

/// `void`: undo an earlier event (`event`: its 0-based index), e.g. "undo last hand".
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Void {
    #[serde(rename = "type")]
    _kind: String,
    event: usize,
    reason: Option<String>,
}

/// `correction`: replace an earlier event with `replacement`, an event of the same type.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Correction {
    #[serde(rename = "type")]
    _kind: String,
    event: usize,
    replacement: Map<String, Value>,
    reason: Option<String>,
}

/// The longest correction reason accepted, in characters.
const REASON_MAX: usize = 200;

impl Core {
    /// Applies a plain event at `index` and returns its row; a deal is numbered after
    /// `last_hand`. Errors: the rules' refusal; the core is unchanged.
    fn apply_plain(
        &mut self,
        index: usize,
        event: Read<'_>,
        last_hand: Option<usize>,
    ) -> Result<Row, Refusal> {
        let mut core = self.clone();
        let r = core.apply_plain_in_place(index, event, last_hand)?;
        *self = core;
        Ok(r)
    }

    /// [`Core::apply_plain`] without the copy: on error this core must be dropped.
    fn apply_plain_in_place(
        &mut self,
        index: usize,
        event: Read<'_>,
        last_hand: Option<usize>,
    ) -> Result<Row, Refusal> {
        let kind = event.kind;
        let outcome = self.step(index, event)?;
        let hand_number = self
            .engine
            .is_deal(kind.as_str())
            .then(|| last_hand.map_or(1, |n| n + 1));
        let finished = outcome.finished.is_some();
        let mut r = row(Some(index), kind, hand_number, outcome);
        if finished && let Some(finish) = self.finished.last() {
            r.game_ends.push(ShownEnd::of(self.finished.len(), finish));
        }
        Ok(r)
    }

    /// Reads the event at `index` and its kind. Errors name `event` or `type`; an unknown
    /// `type` is refused in the game's words after [`Core::admit`].
    fn read_event<'a>(
        &self,
        event: impl Into<Entry<'a>>,
        index: usize,
    ) -> Result<Read<'a>, Refusal> {
        // A typed hand's kind is its event's own; its document is what the store keeps.
        let (object, text, typed) = match event.into() {
            Entry::Written(raw) => {
                let (object, text) = event_object(raw, index)?;
                (object, text, None)
            }
            Entry::Typed(hand) => {
                let (object, _) = event_object(&hand.written, index)?;
                (object, hand.kind, Some(hand))
            }
        };
        match EventKind::read(text, self.engine.kinds()) {
            Some(kind) => Ok(Read {
                kind,
                object,
                typed,
                quiet: false,
            }),
            None => {
                self.admit(index, None, object)?;
                Err(Refusal::from_rule(self.engine.unknown(text), Some(index)))
            }
        }
    }

    /// The first checks of every event: numbers in bounds, the sitting open unless a
    /// payment (session-format). Errors name the field or `type`.
    fn admit(
        &self,
        index: usize,
        kind: Option<EventKind>,
        object: &Map<String, Value>,
    ) -> Result<(), Refusal> {
        object
            .iter()
            .try_for_each(|(field, value)| fields::check_numbers(value, field))
            .map_err(|e| Refusal::from_rule(e, Some(index)))?;
        match self.closed_at {
            Some(at) if kind != Some(EventKind::Payment) => Err(Refusal::from_rule(
                RuleError::new(
                    "type",
                    format!(
                        "the sitting was closed by event {at}; only a payment, the undo of a payment or a reopen may follow a close"
                    ),
                )
                .rule("session-format"),
                Some(index),
            )),
            _ => Ok(()),
        }
    }

    /// Applies a plain event and posts its money; on error the core must be dropped.
    fn step(&mut self, index: usize, event: Read<'_>) -> Result<Outcome, Refusal> {
        let Read {
            kind,
            object,
            typed,
            quiet,
        } = event;
        self.admit(index, Some(kind), object)?;
        let house = self.engine.house_accounts();
        // The melds named go around the game, which never sees them.
        let named = match typed {
            Some(hand) => hand.meld_detail.clone().map(|d| (object.clone(), d)),
            None => crate::rules::meld::detail::split(kind.as_str(), object),
        };
        let object = named.as_ref().map_or(object, |(rest, _)| rest);
        let mut ctx = Ctx {
            table: &mut self.table,
            quiet,
        };
        let outcome = match kind {
            EventKind::Payment => payment(&house, &mut ctx, object),
            EventKind::Close => {
                fields::read::<Close>(object).and_then(|_| self.engine.close(&mut ctx))
            }
            EventKind::Hand | EventKind::Game(_) => match typed {
                Some(hand) => self.engine.apply_typed(&mut ctx, hand.event.as_ref()),
                None => self.engine.apply(&mut ctx, kind.as_str(), object),
            },
            EventKind::OpeningAnte
            | EventKind::Reopen
            | EventKind::Void
            | EventKind::Correction => Err(RuleError::new(
                "type",
                format!("internal error: a {kind} is not applied as a step"),
            )),
        }
        .and_then(|o| match &named {
            Some((rest, detail)) => {
                crate::rules::meld::detail::annotate(self.meld, rest, detail, ctx.table.seated(), o)
            }
            None => Ok(o),
        })
        .map_err(|e| Refusal::from_rule(e, Some(index)))?;
        check_zero_sum(&outcome.postings, Some(index))?;
        for account in self.table.everyone() {
            self.balances.open(account);
        }
        self.balances
            .checked_apply(&outcome.postings)
            .map_err(|e| Refusal::at(index, e.field, e.message))?;
        if kind == EventKind::Close {
            self.closed_at = Some(index);
        }
        if let Some((game, end)) = &outcome.finished {
            self.finished.push(Finish {
                event: index,
                game: game.clone(),
                end: end.clone(),
                postings: outcome.postings.clone(),
            });
        }
        Ok(outcome)
    }
}

fn check_zero_sum(postings: &[Posting], index: Option<usize>) -> Result<(), Refusal> {
    // Summed wide: postings out of range must be refused, not overflow here.
    let sum: i128 = postings.iter().map(|p| i128::from(p.amount.cents())).sum();
    if sum == 0 {
        Ok(())
    } else {
        Err(Refusal {
            event_index: index,
            field: "type".into(),
            message: format!("internal error: the postings sum to {sum} cents, not zero"),
            rule: None,
        })
    }
}

/// An event as a JSON object with its type. Errors name `event` or `type`.
fn event_object(raw: &Value, index: usize) -> Result<(&Map<String, Value>, &str), Refusal> {
    let object = raw
        .as_object()
        .ok_or_else(|| Refusal::at(index, "event", "an event is a JSON object"))?;
    let kind = object.get("type").and_then(Value::as_str).ok_or_else(|| {
        Refusal::at(
            index,
            "type",
            "every event has a type (hand, payment, close, …)",
        )
    })?;
    Ok((object, kind))
}

/// The fold keeps the state before one standing event in this many.
pub const CHECKPOINT: usize = 32;

/// The session folded so far.
#[derive(Clone)]
pub struct Fold {
    game: &'static GameInfo,
    core: Core,
    standing: Vec<Standing>,
    rows: Vec<Row>,
    /// The row of each event index.
    row_of: BTreeMap<usize, usize>,
    /// The closing row shown for each game number: (row, position among its game ends).
    shown: BTreeMap<usize, (usize, usize)>,
    start_line: Option<SheetLine>,
    /// The index of the first event held: 0, or where a tail ([`Fold::tail`]) begins.
    first: usize,
    /// Of a tail: the last deal standing before `first` and its hand number, which
    /// "undo last hand" and the next hand's number fall back on.
    earlier_deal: Option<(usize, Option<usize>)>,
    /// Events before this index are folded without the rules' words ([`Fold::quiet_before`]).
    quiet_before: usize,
}

impl std::fmt::Debug for Fold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fold")
            .field("game", &self.game.id)
            .field("rows", &self.rows.len())
            .field("closed_at", &self.core.closed_at)
            .finish_non_exhaustive()
    }
}

impl Fold {
    /// Starts `game`, with the opening ante where it takes one. Errors name the field.
    pub fn start(
        game: &'static GameInfo,
        agreements: &Map<String, Value>,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<Fold, Refusal> {
        let bounded = agreements
            .iter()
            .try_for_each(|(k, v)| fields::check_numbers(v, &format!("agreements.{k}")))
            .and_then(|()| {
                opening_scores.map_or(Ok(()), |v| fields::check_numbers(v, "opening_scores"))
            });
        bounded.map_err(|e| Refusal::from_rule(e, None))?;
        let engine = (game.start)(agreements, players, opening_scores)
            .map_err(|e| Refusal::from_rule(e, None))?;
        let mut core = Core {
            engine,
            table: Table::new(players),
            balances: Balances::default(),
            closed_at: None,
            finished: Games::default(),
            meld: game.meld,
        };
        for p in players {
            core.balances.open(p);
        }
        if core.engine.has_kitty() {
            core.balances.open(KITTY);
        }
        let start_line = core.engine.start_line();
        let mut ctx = Ctx {
            table: &mut core.table,
            quiet: false,
        };
        let opening = core.engine.opening(&mut ctx);
        let mut rows = Vec::new();
        if let Some(outcome) = opening {
            check_zero_sum(&outcome.postings, None)?;
            core.balances
                .checked_apply(&outcome.postings)
                .map_err(|e| Refusal::document(e.field, e.message))?;
            rows.push(row(None, EventKind::OpeningAnte, None, outcome));
        }
        Ok(Fold {
            game,
            core,
            standing: Vec::new(),
            rows,
            row_of: BTreeMap::new(),
            shown: BTreeMap::new(),
            start_line,
            first: 0,
            earlier_deal: None,
            quiet_before: 0,
        })
    }

    /// Applies the next event, at `index`: a document's ([`Value`]) or a form's typed hand
    /// ([`FormHand`]). Errors: the rules' refusal; the fold is unchanged.
    pub fn apply<'a>(&mut self, index: usize, event: impl Into<Entry<'a>>) -> Result<(), Refusal> {
        let event = event.into();
        self.apply_as(index, event, None)
    }

    /// [`Fold::apply`] of an event the store already holds, `body` (its compact JSON text),
    /// without copying the state first: replaying a stored session costs one rules step an
    /// event. Errors: the event no longer replays; this fold must then be dropped.
    pub fn apply_stored(&mut self, index: usize, body: &str) -> Result<(), Refusal> {
        let raw: Value = serde_json::from_str(body)
            .map_err(|e| Refusal::at(index, "event", format!("not JSON: {e}")))?;
        self.apply_as(index, Entry::Written(&raw), Some(body))
    }

    /// [`Fold::apply`]; with the event's stored `body`, in place and keeping that text.
    fn apply_as(
        &mut self,
        index: usize,
        event: Entry<'_>,
        body: Option<&str>,
    ) -> Result<(), Refusal> {
        let mut read = self.core.read_event(event, index)?;
        read.quiet = index < self.quiet_before;
        let (kind, object) = (read.kind, read.object);
        if kind.amends() {
            return self.amend(index, kind, object);
        }
        if kind == EventKind::Reopen {
            return self.reopen(index, object);
        }
        let before = self
            .standing
            .len()
            .is_multiple_of(CHECKPOINT)
            .then(|| self.core.clone());
        let last_hand = self.last_hand_number();
        let r = match body {
            Some(_) => self.core.apply_plain_in_place(index, read, last_hand)?,
            None => self.core.apply_plain(index, read, last_hand)?,
        };
        let deal = self.core.engine.is_deal(kind.as_str());
        let text = match body {
            Some(text) => Box::from(text),
            None => event.written().to_string().into_boxed_str(),
        };
        self.standing.push(Standing {
            index,
            event: text,
            deal,
            scored: r.scores_after.is_some(),
            before: before.map(Box::new),
            counted: Counted::of(&r),
        });
        if !r.game_ends.is_empty() {
            self.shown
                .insert(self.core.finished.len(), (self.rows.len(), 0));
        }
        self.row_of.insert(index, self.rows.len());
        self.rows.push(r);
        Ok(())
    }

    /// The number of events folded (the index the next event takes).
    pub fn events(&self) -> usize {
        self.row_of.keys().next_back().map_or(self.first, |i| i + 1)
    }

    /// The game this fold plays.
    pub fn game(&self) -> &'static GameInfo {
        self.game
    }

    /// Every row, in order: the opening ante (if any), then one per event.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The line the sheet starts with when the first game does not start from zero.
    pub fn start_line(&self) -> Option<&SheetLine> {
        self.start_line.as_ref()
    }

    core_accessors!(core);

    /// The number of the last standing deal ("hand 3"), which the next hand follows.
    pub fn last_hand_number(&self) -> Option<usize> {
        self.last_hand_before(self.standing.len())
    }

    /// The number of the hand at `index` ("hand 3"), for any event that is a hand.
    pub fn hand_number(&self, index: usize) -> Option<usize> {
        self.row_of
            .get(&index)
            .and_then(|&r| self.rows.get(r))
            .and_then(|r| r.hand_number)
    }
}

#[cfg(test)]
mod tail_tests;
#[cfg(test)]
mod tests;
