//! What the service keeps of each open session: the state after its last event and the
//! window of its latest rows, without its history.

use serde_json::{Map, Value};

use super::window::Window;
use super::{Core, EventKind, Finish, Fold, Refusal, Row};
use crate::rules::GameInfo;

/// [`Core::apply_plain`] or its in-place form.
type PlainStep =
    fn(&mut Core, usize, EventKind, &Map<String, Value>, Option<usize>) -> Result<Row, Refusal>;

/// A session's state after its last event without its history: the engine, seating,
/// balances and games finished, the count of events, the number of the last hand standing
/// and the last row. Enough to record the next event that is not an amendment or a reopen
/// ([`Tip::needs_history`]) exactly as [`Fold::apply`] would, and to tell where the session
/// stands; its size does not grow with the hands played (only with the games finished),
/// so it is what the service keeps of each open session. Pure and cloneable.
#[derive(Clone)]
pub struct Tip {
    game: &'static GameInfo,
    pub(super) core: Core,
    pub(super) events: usize,
    last_hand: Option<usize>,
    /// The latest rows, for the sheet.
    window: Window,
}

impl std::fmt::Debug for Tip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tip")
            .field("game", &self.game.id)
            .field("events", &self.events)
            .field("closed_at", &self.core.closed_at)
            .finish_non_exhaustive()
    }
}

impl Tip {
    /// The tip of a whole fold: its state after its last event.
    pub fn of(fold: &Fold) -> Tip {
        Tip {
            game: fold.game,
            core: Core {
                finished: fold.core.finished.slim_copy(),
                ..fold.core.clone()
            },
            events: fold.events(),
            last_hand: fold.last_standing_hand().and_then(|i| fold.hand_number(i)),
            window: Window::of(fold),
        }
    }

    /// Whether `raw` needs the session's history to be applied (a `void`, a `correction`
    /// or a `reopen` goes back to an earlier state): such an event goes through a whole
    /// [`Fold`], never a tip.
    pub fn needs_history(raw: &Value) -> bool {
        EventKind::of_session_event(raw).is_some_and(EventKind::reaches_back)
    }

    /// Applies `raw` as the next event, as [`Fold::apply`] does. Errors: the rules'
    /// refusal naming the event's index and field, or a refusal naming `type` for an
    /// event that [`Tip::needs_history`]; on error the tip is unchanged.
    pub fn apply(&mut self, raw: &Value) -> Result<(), Refusal> {
        self.apply_with(raw, Core::apply_plain)
    }

    /// [`Tip::apply`] without the copy that keeps the tip unchanged on error, for a fold
    /// that stops at the first refusal (a replay): on error this tip must be dropped.
    pub fn apply_or_drop(&mut self, raw: &Value) -> Result<(), Refusal> {
        self.apply_with(raw, Core::apply_plain_in_place)
    }

    fn apply_with(&mut self, raw: &Value, apply: PlainStep) -> Result<(), Refusal> {
        let index = self.events;
        let (object, kind) = self.core.read_event(raw, index)?;
        if kind.reaches_back() {
            return Err(Refusal::at(
                index,
                "type",
                format!("internal error: a {kind} needs the session's history"),
            ));
        }
        let r = apply(&mut self.core, index, kind, object, self.last_hand)?;
        if r.hand_number.is_some() {
            self.last_hand = r.hand_number;
        }
        if !r.game_ends.is_empty() {
            self.core.finished.slim_older();
        }
        self.window.push(r);
        self.events = index + 1;
        Ok(())
    }

    /// The game played.
    pub fn game(&self) -> &'static GameInfo {
        self.game
    }

    /// How many events are folded.
    pub fn events(&self) -> usize {
        self.events
    }

    /// The last game finished in the session as it stands. A tip keeps of the games
    /// before it only their ledger records ([`Tip::games`]).
    pub fn last_finished(&self) -> Option<&Finish> {
        self.core.finished.last()
    }

    core_accessors!();

    /// The number of the last hand standing ("hand 3"), which the next deal follows.
    pub fn last_hand(&self) -> Option<usize> {
        self.last_hand
    }

    /// The row of the last event (the opening ante's before any event; `None` without
    /// either).
    pub fn last_row(&self) -> Option<&Row> {
        self.window.last()
    }

    /// The latest rows and what the sheet needs of the earlier ones.
    pub fn window(&self) -> &Window {
        &self.window
    }
}
