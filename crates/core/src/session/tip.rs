//! What the service keeps of each open session: its state after the last event, its
//! latest rows and its recent events (the tail), without the rest of its history.

use serde_json::Value;

use super::window::{BeforeTail, Window};
use super::{Entry, EventKind, Finish, Fold, Refusal, Row, TAIL};
use crate::rules::GameInfo;

/// A session's state after its last event, with its recent events but not its history:
/// records any event as [`Fold::apply`] would, but an amendment of an event before its
/// tail or a `reopen` ([`Tip::reaches_before`]). Grows with games, not hands.
#[derive(Clone)]
pub struct Tip {
    game: &'static GameInfo,
    /// The events from a kept state on, [`TAIL`] to 2 × [`TAIL`] of them standing, folded
    /// whole: its core is the state after the last event, and a `void` or `correction` of
    /// one of them replays only the events after it.
    pub(super) tail: Fold,
    /// The latest rows, for the sheet.
    window: Window,
    /// What the window needs of the rows before the tail.
    before_tail: BeforeTail,
}

impl std::fmt::Debug for Tip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tip")
            .field("game", &self.game.id)
            .field("events", &self.events())
            .field("tail_from", &self.tail.first())
            .field("closed_at", &self.tail.core.closed_at)
            .finish_non_exhaustive()
    }
}

impl Tip {
    /// The tip of a whole fold: its state after its last event, with its tail. Errors: a
    /// replay refused while keeping the tail's first state (a bug).
    pub fn of(fold: &Fold) -> Result<Tip, Refusal> {
        let tail = fold.tail()?;
        let mut before_tail = BeforeTail::of(fold);
        before_tail.add(fold, tail.first());
        Ok(Tip {
            game: fold.game,
            tail,
            window: Window::of(fold),
            before_tail,
        })
    }

    /// Whether `raw` (a `void`, `correction` or `reopen`) may need the whole [`Fold`]:
    /// what a tip cannot always apply ([`Tip::reaches_before`] tells for one tip).
    pub fn needs_history(raw: &Value) -> bool {
        EventKind::of_session_event(raw).is_some_and(EventKind::reaches_back)
    }

    /// Whether this tip cannot apply `raw`: a `reopen`, or a `void` or `correction` of an
    /// event before its tail, or one while a `reopen` stands in the tail; the whole [`Fold`]
    /// applies those.
    pub fn reaches_before(&self, raw: &Value) -> bool {
        match EventKind::of_session_event(raw) {
            Some(EventKind::Reopen) => true,
            Some(kind) if kind.amends() => {
                let target = raw.get("event").and_then(Value::as_u64);
                target.is_some_and(|t| usize::try_from(t).is_ok_and(|t| !self.amends_within(t)))
            }
            _ => false,
        }
    }

    /// Whether this tip can itself apply a `void` or `correction` of event `target`: one
    /// in its tail while no `reopen` stands there.
    pub fn amends_within(&self, target: usize) -> bool {
        target >= self.tail.first() && !self.tail.holds_reopen()
    }

    /// Applies `event` as [`Fold::apply`] does; refuses (`type`) one it
    /// [`Tip::reaches_before`].
    pub fn apply<'a>(&mut self, event: impl Into<Entry<'a>>) -> Result<(), Refusal> {
        let event = event.into();
        let index = self.events();
        if let Entry::Written(raw) = event
            && self.reaches_before(raw)
        {
            let kind = EventKind::of_session_event(raw).map_or("event", EventKind::as_str);
            return Err(Refusal::at(
                index,
                "type",
                format!("internal error: a {kind} needs the session's history"),
            ));
        }
        self.tail.apply(index, event)?;
        let games = self.tail.core.finished.len();
        let Some(row) = self.tail.rows.last() else {
            return Ok(());
        };
        if row.amends.is_some() {
            self.window.rebuild(&self.tail, &self.before_tail);
        } else {
            self.window.push(row.clone());
        }
        if games > 0 {
            self.tail.core.finished.slim_older();
        }
        if let Some(s) = self
            .tail
            .standing
            .get(2 * TAIL - 1)
            .and(self.tail.standing.get(TAIL))
        {
            // Were the first state kept not to replay (a bug), the tail just stays longer.
            let mut before_tail = self.before_tail.clone();
            before_tail.add(&self.tail, s.index);
            if self.tail.drop_before(TAIL).is_ok() {
                self.before_tail = before_tail;
            }
        }
        Ok(())
    }

    /// The game played.
    pub fn game(&self) -> &'static GameInfo {
        self.game
    }

    /// How many events are folded.
    pub fn events(&self) -> usize {
        self.tail.events()
    }

    core_accessors!(tail.core);

    /// [`Tip::games`] as the ledger's JSON array, written from the records as held.
    pub fn games_json(&self) -> String {
        self.tail.core.finished.records_json()
    }

    /// The number of the last hand standing ("hand 3"), which the next deal follows.
    pub fn last_hand(&self) -> Option<usize> {
        self.tail.last_hand_number()
    }

    /// The 0-based index of the last standing deal, which "undo last hand" voids, as
    /// [`Fold::last_standing_hand`] gives it; `None` before any.
    pub fn last_standing_hand(&self) -> Option<usize> {
        self.tail.last_standing_hand()
    }

    /// The recent events folded whole, from [`Fold::first`] on: what an amendment replays.
    pub fn tail(&self) -> &Fold {
        &self.tail
    }

    /// The row of the last event (or the opening ante's); `None` without either.
    pub fn last_row(&self) -> Option<&Row> {
        self.window.last()
    }

    /// The latest rows and what the sheet needs of the earlier ones.
    pub fn window(&self) -> &Window {
        &self.window
    }
}
