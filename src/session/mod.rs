//! The session fold: one pass over a session's events that keeps, for every event, what the
//! ledger and the score sheet need, corrections included. Pure and cloneable.
//!
//! The fold keeps the state before every [`CHECKPOINT`]th event that still stands, so a
//! `void` or `correction` of event N restarts from the state just before N (replayed from
//! the nearest kept state) and re-applies only the events after it; the original event and its postings stay as history and the amendment
//! posts the difference (issue "corrections never erase: they reverse and re-enter"). The
//! same pass records which rows are struck, which event finished which game, and which game
//! ends an amendment changed: nothing is replayed per correction or guessed from sentences.

mod afresh;
mod amend;
mod games;
mod preview;
pub mod sheet;
mod tip;
pub mod why;
pub mod window;

pub use tip::Tip;

use games::Games;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::ledger::{Balances, KITTY, Posting, Postings};
use crate::money::Money;
use crate::rules::{
    Cell, Ctx, Engine, FinishedGame, GameEnd, GameInfo, Outcome, RuleError, SheetLine, Step, Table,
    fields,
};

/// Why a session document was refused: the event's 0-based index (if the fault is in an
/// event), the field, the reason in player words and the rule that says so. Shown whole
/// (API, replay) as `event 3: bid: 240 is below the minimum 250 (rules §1.1)`; a page shows
/// the message alone, the rule in its details.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{field}: {message}{}", .event_index.map(|i| format!("event {i}: ")).unwrap_or_default(), crate::rules::fields::cite(.rule.as_deref()))]
pub struct Refusal {
    /// The position of the refused event in `events`, if an event is at fault.
    pub event_index: Option<usize>,
    /// The field at fault (`bid`, `agreements.stake`, `players`).
    pub field: String,
    /// What is wrong, in player words, without the citation.
    pub message: String,
    /// The rule that refuses it, as cited (`"rules §1.1"`); `None` when none is cited.
    pub rule: Option<String>,
}

impl Refusal {
    /// A refusal of the document itself (no event at fault).
    pub fn document(field: impl Into<String>, message: impl Into<String>) -> Refusal {
        Refusal {
            event_index: None,
            field: field.into(),
            message: message.into(),
            rule: None,
        }
    }

    /// A refusal of the event at `index`.
    pub fn at(index: usize, field: impl Into<String>, message: impl Into<String>) -> Refusal {
        Refusal {
            event_index: Some(index),
            field: field.into(),
            message: message.into(),
            rule: None,
        }
    }

    /// The same refusal citing `rule` (`"rules §1.1"`).
    pub fn citing(self, rule: Option<String>) -> Refusal {
        Refusal { rule, ..self }
    }

    /// The rules' refusal `err` of the event at `event_index` (or of the document), its
    /// rule kept.
    pub fn from_rule(err: RuleError, event_index: Option<usize>) -> Refusal {
        Refusal {
            event_index,
            field: err.field,
            message: err.message,
            rule: err.rule,
        }
    }
}

impl Clone for Box<dyn Engine> {
    fn clone(&self) -> Box<dyn Engine> {
        self.clone_box()
    }
}

/// A game finished in the session as it stands: the event that finished it, the ledger's
/// record of it, what its closing row shows, and its payments (that event's postings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finish {
    /// The 0-based index of the event that finished it (a replacement counts as the event
    /// it replaces).
    pub event: usize,
    /// The ledger's record (`games`).
    pub game: FinishedGame,
    /// The closing row.
    pub end: GameEnd,
    /// The payments, in cents.
    pub postings: Vec<Posting>,
}

/// The state after some events: the engine, the seating, the balances (cents), the close,
/// and the games finished so far.
#[derive(Clone)]
struct Core {
    engine: Box<dyn Engine>,
    table: Table,
    balances: Balances,
    closed_at: Option<usize>,
    finished: Games,
    /// The game's meld table, for a hand's `meld_detail` (issue 28); `None` without meld.
    meld: Option<&'static crate::rules::meld::MeldRules>,
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

/// `reopen`: takes the close back (`reason` why); play goes on (session-format).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Reopen {
    #[serde(rename = "type")]
    _kind: String,
    reason: Option<String>,
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
    /// Applies the event at `index`, which is neither an amendment (`void`, `correction`)
    /// nor a `reopen`, and returns its row; `last_hand` is the number of the last hand
    /// standing before it. A deal is numbered after the last hand standing: an undone hand
    /// keeps its struck number and the hand entered in its place takes the same one.
    /// Errors: the rules' refusal at `index`; on error the core is unchanged.
    fn apply_plain(
        &mut self,
        index: usize,
        kind: &str,
        object: &Map<String, Value>,
        last_hand: Option<usize>,
    ) -> Result<Row, Refusal> {
        let mut core = self.clone();
        let r = core.apply_plain_in_place(index, kind, object, last_hand)?;
        *self = core;
        Ok(r)
    }

    /// [`Core::apply_plain`] without the copy that keeps the core unchanged on error: on
    /// error this core must be dropped.
    fn apply_plain_in_place(
        &mut self,
        index: usize,
        kind: &str,
        object: &Map<String, Value>,
        last_hand: Option<usize>,
    ) -> Result<Row, Refusal> {
        let outcome = self.step(index, kind, object)?;
        let hand_number = self
            .engine
            .is_deal(kind)
            .then(|| last_hand.map_or(1, |n| n + 1));
        let finished = outcome.finished.is_some();
        let mut r = row(Some(index), kind, hand_number, outcome);
        if finished && let Some(finish) = self.finished.last() {
            r.game_ends.push(ShownEnd {
                number: self.finished.len(),
                finish: finish.clone(),
                struck_by: None,
            });
        }
        Ok(r)
    }

    /// Applies the event at `index` (anything but a correction) and posts its money.
    /// Errors: the rules' refusal at `index`; on error the core must be dropped.
    fn step(
        &mut self,
        index: usize,
        kind: &str,
        object: &Map<String, Value>,
    ) -> Result<Outcome, Refusal> {
        // Bounded before any rule computes with them, so no arithmetic can overflow.
        object
            .iter()
            .try_for_each(|(field, value)| fields::check_numbers(value, field))
            .map_err(|e| Refusal::from_rule(e, Some(index)))?;
        let house = self.engine.house_accounts();
        // The melds named go around the game, which never sees them (older documents have none).
        let named = crate::rules::meld::detail::split(kind, object);
        let object = named.as_ref().map_or(object, |(rest, _)| rest);
        let mut ctx = Ctx {
            table: &mut self.table,
            balances: &self.balances,
        };
        let outcome = match (self.closed_at, kind) {
            (Some(at), k) if k != "payment" => Err(RuleError::new(
                "type",
                format!(
                    "the sitting was closed by event {at}; only a payment, the undo of a payment or a reopen may follow a close"
                ),
            )
            .rule("session-format")),
            (None, "reopen") => Err(RuleError::new(
                "type",
                "the sitting is not closed, so there is nothing to reopen",
            )),
            (_, "payment") => payment(&house, &mut ctx, object),
            (_, "close") => {
                fields::read::<Close>(object).and_then(|_| self.engine.close(&mut ctx))
            }
            _ => self.engine.apply(&mut ctx, kind, object),
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
            .map_err(|e| Refusal::from_rule(e, Some(index)))?;
        if kind == "close" {
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

/// `payment`: money really handed over from one account to another, which moves both
/// balances toward zero (`design/session-format.md`).
fn payment(
    house: &[&str],
    ctx: &mut Ctx<'_>,
    object: &Map<String, Value>,
) -> Result<Outcome, RuleError> {
    let p: Payment = fields::read(object)?;
    let known = |name: &str| ctx.table.has_account(name) || house.contains(&name);
    for (field, name) in [("from", &p.from), ("to", &p.to)] {
        if !known(name) {
            return Err(RuleError::new(
                field,
                format!("{name} has no account at this table"),
            ));
        }
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
    Ok(Outcome::new(
        postings.into_vec(),
        format!("{} paid {} {}", p.from, p.to, p.amount),
        SheetLine::titled(format!("{} paid {}", p.from, p.to)),
    ))
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
pub fn event_object(raw: &Value, index: usize) -> Result<(&Map<String, Value>, &str), Refusal> {
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

/// An event that still stands (not undone, its latest version), with the state before it
/// when it is kept there (every [`CHECKPOINT`]th event, and the first).
#[derive(Clone)]
struct Standing {
    index: usize,
    /// The event as compact JSON text: a tenth of the memory of its parsed [`Value`], which
    /// a long session would otherwise hold once per hand; parsed again only when a
    /// correction replays it.
    event: Box<str>,
    /// Whether it is a deal ([`Engine::is_deal`]), for "undo last hand".
    deal: bool,
    before: Option<Box<Core>>,
}

impl Standing {
    /// The event at `index` (`raw`), kept with the state `before` it when given.
    fn new(index: usize, raw: &Value, deal: bool, before: Option<Core>) -> Standing {
        Standing {
            index,
            event: raw.to_string().into_boxed_str(),
            deal,
            before: before.map(Box::new),
        }
    }

    /// The event parsed again. It was written from a [`Value`], so it always parses; were
    /// it not to, the `Null` it gives is refused as "not an object" where it is applied.
    fn event(&self) -> Value {
        serde_json::from_str(&self.event).unwrap_or(Value::Null)
    }
}

/// The fold keeps the state before one standing event in this many: the state before any
/// other is replayed from the nearest kept one (at most this many events), so a long
/// session holds a few states, not one per hand.
pub const CHECKPOINT: usize = 32;

/// What a `void` or `correction` row does: the event it changes and whether it undoes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Amend {
    /// The 0-based index of the changed event.
    pub target: usize,
    /// True for an undo (`void`).
    pub void: bool,
}

/// A later change of a row's event: the `correction` or `void` at `by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// The index of the amending event.
    pub by: usize,
    /// True when it undid the event.
    pub void: bool,
}

/// A game's closing row shown under a row of the sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownEnd {
    /// The game's number in the session, from 1.
    pub number: usize,
    /// The finished game.
    pub finish: Finish,
    /// Set when a later amendment (its index) changed how this game ended; `true` when
    /// the game is still over, ended differently.
    pub struck_by: Option<(usize, bool)>,
}

/// One row of the session: an event (or the opening ante) with its ledger entry, its
/// sheet line and its history.
#[derive(Debug, Clone)]
pub struct Row {
    /// The event's 0-based index; `None` for the opening ante (ledger `seq` 0).
    pub index: Option<usize>,
    /// The event's type, `"opening_ante"` for the opening ante.
    pub kind: String,
    /// For a deal, its number on the sheet: one more than the last hand standing when it was
    /// entered (an undone hand keeps its number, struck, and the next hand takes it again).
    pub hand_number: Option<usize>,
    /// The postings in cents, summing to zero.
    pub postings: Vec<Posting>,
    /// Running scores after it, for games that keep them.
    pub scores_after: Option<Value>,
    /// The reason in words.
    pub explanation: String,
    /// The reckoning as steps (for a correction: the replacement's own reckoning).
    pub steps: Vec<Step>,
    /// The rules the reckoning follows, as cited (`"rules §1.1"`), for the row's details.
    pub rules: Vec<String>,
    /// What the sheet shows (for an amendment: what it says it changes).
    pub line: SheetLine,
    /// For a `void` or `correction`: what it changes.
    pub amends: Option<Amend>,
    /// For an amendment: where the points and checks columns stand after it.
    pub standing_after: Vec<Cell>,
    /// Later amendments of this row's event; non-empty means struck through.
    pub changed_by: Vec<Change>,
    /// Closing rows of the games this row finished (a hand) or ended anew (an amendment).
    pub game_ends: Vec<ShownEnd>,
}

impl Row {
    /// The ledger's `seq`: the event's index + 1, or 0 for the opening ante.
    pub fn seq(&self) -> usize {
        self.index.map_or(0, |i| i + 1)
    }

    /// The reason in words followed by the rules it follows, as the ledger document gives
    /// it: "All passed on D's deal: a dead hand, no score; D deals again (rules §1.4)".
    pub fn cited_explanation(&self) -> String {
        match self.rules.is_empty() {
            true => self.explanation.clone(),
            false => format!("{} ({})", self.explanation, self.rules.join("; ")),
        }
    }

    /// Whether a later amendment changed this row's event (it is shown struck through).
    pub fn struck(&self) -> bool {
        !self.changed_by.is_empty()
    }
}

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
    /// Starts the engine of `game` for the agreements, players (seat order) and opening
    /// scores, with the opening ante when the game takes one. Errors: refused agreements or
    /// opening scores, naming the field.
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
            meld: crate::rules::meld::MeldRules::of(game.id),
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
            balances: &core.balances,
        };
        let opening = core.engine.opening(&mut ctx);
        let mut rows = Vec::new();
        if let Some(outcome) = opening {
            check_zero_sum(&outcome.postings, None)?;
            core.balances
                .checked_apply(&outcome.postings)
                .map_err(|e| Refusal::from_rule(e, None))?;
            rows.push(row(None, "opening_ante", None, outcome));
        }
        Ok(Fold {
            game,
            core,
            standing: Vec::new(),
            rows,
            row_of: BTreeMap::new(),
            shown: BTreeMap::new(),
            start_line,
        })
    }

    /// Applies the event at `index` (the next one). Errors: the rules' refusal, naming
    /// the event's index and field; on error the fold is unchanged.
    pub fn apply(&mut self, index: usize, raw: &Value) -> Result<(), Refusal> {
        let (object, kind) = event_object(raw, index)?;
        if matches!(kind, "void" | "correction") {
            return self.amend(index, kind, object);
        }
        if kind == "reopen" {
            return self.reopen(index, object);
        }
        let before = self
            .standing
            .len()
            .is_multiple_of(CHECKPOINT)
            .then(|| self.core.clone());
        let last_hand = self.last_standing_hand().and_then(|i| self.hand_number(i));
        let r = self.core.apply_plain(index, kind, object, last_hand)?;
        let deal = self.core.engine.is_deal(kind);
        self.standing.push(Standing::new(index, raw, deal, before));
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
        self.row_of.keys().next_back().map_or(0, |i| i + 1)
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

    /// The engine as it stands after the last event.
    pub fn engine(&self) -> &dyn Engine {
        self.core.engine.as_ref()
    }

    /// The seating after the last event.
    pub fn table(&self) -> &Table {
        &self.core.table
    }

    /// Every balance in cents, the kitty's included.
    pub fn balances(&self) -> &Balances {
        &self.core.balances
    }

    /// The index of the `close`, once the sitting is closed.
    pub fn closed_at(&self) -> Option<usize> {
        self.core.closed_at
    }

    /// The row of the `close` that stands, for a reopen to take back.
    fn close_row(&self) -> Option<usize> {
        self.core
            .closed_at
            .and_then(|at| self.row_of.get(&at).copied())
    }

    /// `reopen` at `index`: takes the standing close back. The engine, seating and games
    /// return to how they stood just before the close (the kitty to its size then), the
    /// close's postings are reversed exactly, and payments made since the close stand.
    /// Errors: no close stands, a reason over 200 characters, unknown fields.
    fn reopen(&mut self, index: usize, object: &Map<String, Value>) -> Result<(), Refusal> {
        let r: Reopen = fields::read(object).map_err(|e| Refusal::from_rule(e, Some(index)))?;
        let (Some(at), Some(close_row)) = (self.core.closed_at, self.close_row()) else {
            return Err(Refusal::at(
                index,
                "type",
                "the sitting is not closed, so there is nothing to reopen",
            ));
        };
        if r.reason
            .as_ref()
            .is_some_and(|x| x.chars().count() > REASON_MAX)
        {
            return Err(Refusal::at(
                index,
                "reason",
                format!("keep the reason under {REASON_MAX} characters"),
            ));
        }
        let slot = self
            .standing_slot(at)
            .ok_or_else(|| Refusal::at(index, "type", "the close no longer stands"))?;
        let before = self.state_before(slot, index)?;
        // The event after the close keeps a state of its own, reopened below, when it
        // would otherwise be replayed through a close no longer there.
        if let Some(s) = self.standing.get(slot + 1)
            && s.before.is_none()
        {
            let next = self.state_before(slot + 1, index)?;
            if let Some(s) = self.standing.get_mut(slot + 1) {
                s.before = Some(Box::new(next));
            }
        }
        self.standing.remove(slot);
        let close =
            self.rows.get(close_row).cloned().ok_or_else(|| {
                Refusal::at(index, "type", "internal error: the close has no row")
            })?;
        let reversed: Vec<Posting> = close
            .postings
            .iter()
            .map(|p| Posting {
                account: p.account.clone(),
                amount: -p.amount,
            })
            .collect();
        // Only payments stand after the close, and they leave the engine as it was: the
        // state before each of them is the state before the close with its money.
        let reopened = |balances: &Balances| {
            let mut core = Core {
                balances: balances.clone(),
                ..before.clone()
            };
            core.balances.apply(&reversed);
            core
        };
        for s in self.standing.iter_mut().filter(|s| s.index > at) {
            if let Some(b) = &s.before {
                s.before = Some(Box::new(reopened(&b.balances)));
            }
        }
        let core = reopened(&self.core.balances);
        let reason = r.reason.as_deref().map(str::trim).filter(|x| !x.is_empty());
        let mut explanation = "Reopened: the close is taken back".to_string();
        if let Some(reason) = reason {
            explanation.push_str(&format!(" ({reason})"));
        }
        explanation.push_str(if reversed.iter().any(|p| !p.amount.is_zero()) {
            "; what it shared out goes back where it was; play goes on"
        } else {
            "; play goes on"
        });
        let mut r = row(
            Some(index),
            "reopen",
            None,
            Outcome::new(reversed, explanation, SheetLine::titled("reopened")),
        );
        r.amends = None;
        let at_row = self.rows.len();
        if let Some(c) = self.rows.get_mut(close_row) {
            c.changed_by.push(Change {
                by: index,
                void: true,
            });
            for end in &mut c.game_ends {
                end.struck_by = Some((index, false));
            }
        }
        self.shown.retain(|_, (row, _)| *row != close_row);
        self.core = core;
        self.row_of.insert(index, at_row);
        self.rows.push(r);
        Ok(())
    }

    /// The games finished in the session as it stands, in order (a copy).
    pub fn finished(&self) -> Vec<Finish> {
        self.core.finished.to_vec()
    }

    /// How many games are finished in the session as it stands.
    pub fn games_finished(&self) -> usize {
        self.core.finished.len()
    }

    /// The ledger's record of each finished game (`games`), in order.
    pub fn games(&self) -> Vec<FinishedGame> {
        self.core.finished.records()
    }

    /// The event at `index` as it stands now (its latest correction), `None` when it was
    /// undone, is an amendment, or does not exist.
    pub fn standing_event(&self, index: usize) -> Option<Value> {
        self.standing_slot(index)
            .map(|slot| self.standing[slot].event())
    }

    /// Whether the event at `index` stands ([`Fold::standing_event`] without reading it).
    pub fn stands(&self, index: usize) -> bool {
        self.standing_slot(index).is_some()
    }

    /// Where the event at `index` is among the standing ones, which are in the order of
    /// their indices.
    fn standing_slot(&self, index: usize) -> Option<usize> {
        self.standing.binary_search_by_key(&index, |s| s.index).ok()
    }

    /// The last deal that still stands ([`Engine::is_deal`]): the one "undo last hand"
    /// undoes.
    pub fn last_standing_hand(&self) -> Option<usize> {
        self.standing.iter().rev().find(|s| s.deal).map(|s| s.index)
    }

    /// The number of the hand at `index` ("hand 3"), for any event that is a hand.
    pub fn hand_number(&self, index: usize) -> Option<usize> {
        self.row_of
            .get(&index)
            .and_then(|&r| self.rows.get(r))
            .and_then(|r| r.hand_number)
    }

    /// Who deals the next hand by the game's rules (the first seat before any hand).
    pub fn next_dealer(&self) -> Option<String> {
        self.core
            .engine
            .next_dealer(&self.core.table)
            .or_else(|| self.core.table.seated().first().cloned())
    }
}

fn row(index: Option<usize>, kind: &str, hand_number: Option<usize>, outcome: Outcome) -> Row {
    Row {
        index,
        kind: kind.to_string(),
        hand_number,
        postings: outcome.postings,
        scores_after: outcome.scores_after,
        explanation: outcome.explanation,
        steps: outcome.steps,
        rules: outcome.rules,
        line: outcome.line,
        amends: None,
        standing_after: Vec::new(),
        changed_by: Vec::new(),
        game_ends: Vec::new(),
    }
}

#[cfg(test)]
mod tests;
