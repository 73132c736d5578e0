//! What the service keeps of each open session: its state after the last event and its
//! latest rows, without history.

use serde_json::Value;

use super::window::Window;
use super::{Core, Entry, EventKind, Finish, Fold, Read, Refusal, Row};
use crate::rules::GameInfo;

/// [`Core::apply_plain`] or its in-place form.
type PlainStep = fn(&mut Core, usize, Read<'_>, Option<usize>) -> Result<Row, Refusal>;

/// A session's state after its last event, without history: records any event that does
/// not [`Tip::needs_history`] as [`Fold::apply`] would. Grows with games, not hands.
#[derive(Clone)]
pub struct Tip {
    game: &'static GameInfo,
    pub(super) core: Core,
    pub(super) events: usize,
    last_hand: Option<usize>,
    /// The index of the last standing deal: what "undo last hand" undoes.
    last_deal: Option<usize>,
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
            last_deal: fold.last_standing_hand(),
            window: Window::of(fold),
        }
    }

    /// Whether `raw` (a `void`, `correction` or `reopen`) needs the whole [`Fold`].
    pub fn needs_history(raw: &Value) -> bool {
        EventKind::of_session_event(raw).is_some_and(EventKind::reaches_back)
    }

    /// Applies `event` as [`Fold::apply`] does; refuses (`type`) one that needs history.
    pub fn apply<'a>(&mut self, event: impl Into<Entry<'a>>) -> Result<(), Refusal> {
        self.apply_with(event.into(), Core::apply_plain)
    }

    /// [`Tip::apply`] without the copy: on error this tip must be dropped.
    pub fn apply_or_drop<'a>(&mut self, event: impl Into<Entry<'a>>) -> Result<(), Refusal> {
        self.apply_with(event.into(), Core::apply_plain_in_place)
    }

    fn apply_with(&mut self, event: Entry<'_>, apply: PlainStep) -> Result<(), Refusal> {
        let index = self.events;
        let read = self.core.read_event(event, index)?;
        let kind = read.kind;
        if kind.reaches_back() {
            return Err(Refusal::at(
                index,
                "type",
                format!("internal error: a {kind} needs the session's history"),
            ));
        }
        let r = apply(&mut self.core, index, read, self.last_hand)?;
        if r.hand_number.is_some() {
            self.last_hand = r.hand_number;
            self.last_deal = Some(index);
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

    /// The last game finished; earlier ones are kept as records only ([`Tip::games`]).
    pub fn last_finished(&self) -> Option<&Finish> {
        self.core.finished.last()
    }

    core_accessors!();

    /// The number of the last hand standing ("hand 3"), which the next deal follows.
    pub fn last_hand(&self) -> Option<usize> {
        self.last_hand
    }

    /// The 0-based index of the last standing deal, which "undo last hand" voids, as
    /// [`Fold::last_standing_hand`] gives it; `None` before any.
    pub fn last_standing_hand(&self) -> Option<usize> {
        self.last_deal
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
