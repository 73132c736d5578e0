//! Corrections and undos: restart from the state before the amended event, re-apply what
//! stands after it, post only the difference. The amended rows stay, struck.

use super::*;
use crate::ledger::Postings;
use crate::rules::{Cell, Field, Step};

/// A `void` or `correction` as read: its target, the replacement (`None` for a `void`), why.
struct Asked {
    target: usize,
    replacement: Option<Map<String, Value>>,
    reason: Option<String>,
}

/// The standing events from the amended one on, replayed with the change.
struct Redone {
    /// The state after the last of them.
    core: Core,
    /// Those standing now (a `void`'s target left out), each with its kept state.
    standing: Vec<Standing>,
    /// The replacement's own reckoning: its words, steps and rules; `None` for a `void`.
    reckoning: Option<(String, Vec<Step>, Vec<String>)>,
    /// The running scores after the last of them that keeps scores.
    last_scores: Option<Value>,
    /// The sheet cells of the last one.
    last_cells: Vec<Cell>,
    /// Each game finished anew that ends otherwise than the sheet shows it under its number
    /// (or that the amended event finished), with its closing row, in order. The games
    /// finished before the amended event stand as they were.
    ended_anew: Vec<ShownEnd>,
}

impl Fold {
    /// The state before the standing event at `slot`. Errors: a replay refused (a bug).
    pub(super) fn state_before(&self, slot: usize, index: usize) -> Result<Core, Refusal> {
        let kept = self.standing[..=slot.min(self.standing.len().saturating_sub(1))]
            .iter()
            .rposition(|s| s.before.is_some())
            .ok_or_else(|| Refusal::at(index, "event", "internal error: no state is kept"))?;
        let mut core = self.standing[kept]
            .before
            .as_deref()
            .cloned()
            .ok_or_else(|| Refusal::at(index, "event", "internal error: no state is kept"))?;
        for s in &self.standing[kept..slot] {
            let event = s.event();
            let read = core.read_event(&event, s.index)?;
            core.step(s.index, read).map_err(|r| {
                Refusal::at(index, "event", format!("internal error: replaying: {r}"))
            })?;
        }
        Ok(core)
    }

    /// A `void` or `correction` at `index`: replays with the change, posts the difference.
    pub(super) fn amend(
        &mut self,
        index: usize,
        kind: EventKind,
        object: &Map<String, Value>,
    ) -> Result<(), Refusal> {
        let asked = self.asked(index, kind, object)?;
        let target = asked.target;
        let slot = self
            .standing_slot(target)
            .ok_or_else(|| Refusal::at(index, "event", self.not_amendable(target)))?;
        let (changed, current_kind) =
            self.changed(index, slot, target, asked.replacement.as_ref())?;
        let mut redone = self.redo(index, slot, target, changed)?;
        let postings = difference(&self.core.balances, &redone.core.balances);
        let label = self.amended_label(target, current_kind);
        let void = asked.replacement.is_none();
        let reason = asked.reason.as_deref();
        let mut r = amendment_row(index, kind, &label, reason, postings, &mut redone, void);
        r.amends = Some(Amend { target, void });
        r.standing_after = redone.core.engine.standing();
        let at = self.rows.len();
        self.rows[self.row_of[&target]]
            .changed_by
            .push(Change { by: index, void });
        let Redone {
            core,
            standing,
            last_cells,
            ended_anew,
            ..
        } = redone;
        self.reshow_game_ends(&mut r, at, core.finished.len(), ended_anew);
        let last_event = standing.last().map(|s| s.index);
        if let Some(cells) = final_tally(&core, &r, last_event, last_cells) {
            r.standing_after = cells;
        }
        self.standing.truncate(slot);
        self.standing.extend(standing);
        self.core = core;
        self.row_of.insert(index, at);
        self.rows.push(r);
        Ok(())
    }

    /// The amendment at `index`, checked before any replay. Errors name `type`, the field,
    /// `reason` or `event`.
    fn asked(
        &self,
        index: usize,
        kind: EventKind,
        object: &Map<String, Value>,
    ) -> Result<Asked, Refusal> {
        let refuse = |e: RuleError| Refusal::from_rule(e, Some(index));
        // After the close only the undo of a payment may come (session-format).
        let undoes_payment = kind == EventKind::Void
            && object
                .get("event")
                .and_then(Value::as_u64)
                .and_then(|t| usize::try_from(t).ok())
                .and_then(|t| self.standing_kind(t))
                == Some(EventKind::Payment);
        if let Some(at) = self.core.closed_at
            && !undoes_payment
        {
            return Err(Refusal::at(
                index,
                "type",
                format!(
                    "the sitting was closed by event {at}; only a payment, the undo of a payment or a reopen may follow a close (session-format)"
                ),
            ));
        }
        let (target, replacement, reason) = if kind == EventKind::Void {
            let v: Void = fields::read(object).map_err(refuse)?;
            (v.event, None, v.reason)
        } else {
            let c: Correction = fields::read(object).map_err(refuse)?;
            (c.event, Some(c.replacement), c.reason)
        };
        if reason
            .as_ref()
            .is_some_and(|r| r.chars().count() > REASON_MAX)
        {
            return Err(Refusal::at(
                index,
                "reason",
                format!("keep the reason under {REASON_MAX} characters"),
            ));
        }
        if target >= index {
            return Err(Refusal::at(
                index,
                "event",
                format!("{target} is not an earlier event (this is event {index})"),
            ));
        }
        Ok(Asked {
            target,
            replacement,
            reason,
        })
    }

    /// The standing events from `slot` on with the change, and the target's type. Errors:
    /// `replacement.type` differs.
    fn changed(
        &self,
        index: usize,
        slot: usize,
        target: usize,
        replacement: Option<&Map<String, Value>>,
    ) -> Result<(Vec<(usize, Replayed<'_>)>, EventKind), Refusal> {
        let current_kind = self.standing_kind(target).ok_or_else(|| {
            Refusal::at(
                index,
                "event",
                "internal error: a standing event has no row",
            )
        })?;
        let mut changed: Vec<(usize, Replayed<'_>)> = self.standing[slot..]
            .iter()
            .map(|s| (s.index, Replayed::Stored(&s.event)))
            .collect();
        match replacement {
            None => {
                changed.remove(0);
            }
            Some(new) => {
                let new_kind = new.get("type").and_then(Value::as_str).unwrap_or_default();
                if new_kind != current_kind.as_str() {
                    return Err(Refusal::at(
                        index,
                        "replacement.type",
                        format!(
                            "event {target} is a {current_kind}; its replacement must be one too"
                        ),
                    ));
                }
                changed[0].1 = Replayed::Replacement(Value::Object(new.clone()));
            }
        }
        Ok((changed, current_kind))
    }

    /// Replays `changed` from before `slot`, keeping checkpoints. Errors at `index`:
    /// `replacement.<field>`, or `event` for a later event refused.
    fn redo(
        &self,
        index: usize,
        slot: usize,
        target: usize,
        changed: Vec<(usize, Replayed<'_>)>,
    ) -> Result<Redone, Refusal> {
        let mut core = self.state_before(slot, index)?;
        let mut last_hand = self.last_hand_before(slot);
        let mut standing = Vec::with_capacity(changed.len());
        let (mut reckoning, mut last_scores, mut last_cells) = (None, None, Vec::new());
        let (mut compared, mut ended_anew) = (core.finished.len(), Vec::new());
        // A void moves the later events a slot back, away from their kept states.
        let rejoins = changed.first().map(|&(i, _)| i) == Some(target);
        let mut events = changed.into_iter().enumerate();
        while let Some((k, (i, replayed))) = events.next() {
            let before = (slot + k).is_multiple_of(CHECKPOINT).then(|| core.clone());
            let (event, text) = replayed.read();
            let mut read = core.read_event(&event, i)?;
            // Of the rows replayed, only the corrected one's words are shown.
            read.quiet = i != target;
            let deal = core.engine.is_deal(read.kind.as_str());
            let row = core
                .apply_plain_in_place(i, read, last_hand)
                .map_err(|r| later_refused(index, i == target, i, r))?;
            last_hand = row.hand_number.or(last_hand);
            last_scores = row.scores_after.clone().or(last_scores);
            last_cells = row.line.cells.clone();
            let counted = Counted::of(&row);
            let scored = row.scores_after.is_some();
            self.compare_ends(&core, target, &mut compared, &mut ended_anew);
            // Compared, the older games keep only their records: a replay of thousands of
            // games holds a few bytes for each, as the fold it replaces does.
            core.finished.slim_older();
            if i == target {
                reckoning = Some((row.explanation, row.steps, row.rules));
            }
            standing.push(Standing {
                index: i,
                event: text.unwrap_or_else(|| event.to_string().into_boxed_str()),
                deal,
                scored,
                before: before.map(Box::new),
                counted,
            });
            if rejoins && let Some(rejoined) = self.rejoin(slot + k + 1, &core) {
                events.nth(rejoined.standing.len() - 1);
                standing.extend(rejoined.standing);
                core = rejoined.core;
                compared = core.finished.len();
                last_hand = self.last_hand_before(rejoined.at);
            }
        }
        Ok(Redone {
            core,
            standing,
            reckoning,
            last_scores,
            last_cells,
            ended_anew,
        })
    }

    /// Compares the games `core` finished after the first `compared` with those the sheet
    /// shows under the same numbers: each that differs, or that the amended event `target`
    /// finished, goes to `ended_anew`. Called after each replayed event, while its game is
    /// still kept whole.
    fn compare_ends(
        &self,
        core: &Core,
        target: usize,
        compared: &mut usize,
        ended_anew: &mut Vec<ShownEnd>,
    ) {
        for (k, new) in core
            .finished
            .to_vec_after(*compared)
            .into_iter()
            .enumerate()
        {
            let number = *compared + k + 1;
            let old = self
                .shown
                .get(&number)
                .and_then(|&(row, pos)| self.rows.get(row)?.game_ends.get(pos));
            if old.is_none_or(|old| old.event == target || !old.same_result(new)) {
                ended_anew.push(ShownEnd::of(number, new));
            }
        }
        *compared = core.finished.len();
    }

    /// The number of the last hand standing before standing slot `slot`, if any.
    pub(super) fn last_hand_before(&self, slot: usize) -> Option<usize> {
        match self.standing[..slot.min(self.standing.len())]
            .iter()
            .rev()
            .find(|s| s.deal)
        {
            Some(s) => self.hand_number(s.index),
            None => self.earlier_deal.and_then(|(_, number)| number),
        }
    }

    /// How the sheet names the amended event: "Hand 3", "The payment", "Event 4 (player joins)".
    fn amended_label(&self, target: usize, kind: EventKind) -> String {
        match self
            .rows
            .get(self.row_of[&target])
            .and_then(|r| r.hand_number)
        {
            Some(n) => format!("Hand {n}"),
            None if kind == EventKind::Payment => "The payment".to_string(),
            None => format!("Event {target} ({})", kind.words()),
        }
    }

    /// Strikes the closing rows of games that ended anew (`ended_anew`, from
    /// [`Fold::compare_ends`]) or no longer end (numbered past `games`, how many are now
    /// finished), and shows under row `r`, at `at`, each game that ended anew.
    fn reshow_game_ends(
        &mut self,
        r: &mut Row,
        at: usize,
        games: usize,
        ended_anew: Vec<ShownEnd>,
    ) {
        let amended_by = r.index.unwrap_or_default();
        let gone: Vec<usize> = self.shown.range(games + 1..).map(|(&n, _)| n).collect();
        let struck = ended_anew.iter().map(|end| (end.number, true));
        for (number, still_over) in struck.chain(gone.into_iter().map(|n| (n, false))) {
            if let Some((row, pos)) = self.shown.remove(&number)
                && let Some(end) = self
                    .rows
                    .get_mut(row)
                    .and_then(|x| x.game_ends.get_mut(pos))
            {
                end.struck_by = Some((amended_by, still_over));
            }
        }
        for end in ended_anew {
            self.shown.insert(end.number, (at, r.game_ends.len()));
            r.game_ends.push(end);
        }
    }
}

/// The postings that take balances `from` to `to` (cents), one per account that changes.
pub(super) fn difference(from: &Balances, to: &Balances) -> Vec<Posting> {
    let mut accounts: Vec<&String> = to.as_map().keys().chain(from.as_map().keys()).collect();
    accounts.sort();
    accounts.dedup();
    let mut postings = Postings::new();
    for account in accounts {
        postings.credit(account, to.get(account) - from.get(account));
    }
    postings.into_vec()
}

/// "Hand 3 corrected (that was hearts): now …; net change Ann +0.20, Bob −0.20".
fn amendment_words(
    label: &str,
    reason: Option<&str>,
    replacement: Option<String>,
    postings: &[Posting],
) -> String {
    let reason = reason
        .map(|r| format!(" ({})", r.trim()))
        .unwrap_or_default();
    let change: Vec<String> = postings
        .iter()
        .filter(|p| !p.amount.is_zero())
        .map(|p| {
            // One minus sign everywhere, as the sheet writes it: "Bob −0.20".
            let sign = if p.amount.cents() > 0 { "+" } else { "−" };
            format!("{} {sign}{}", p.account, p.amount.abs())
        })
        .collect();
    let change = if change.is_empty() {
        "no money changes".to_string()
    } else {
        format!("net change {}", change.join(", "))
    };
    match replacement {
        Some(now) => format!("{label} corrected{reason}: now {now}; {change}"),
        None => format!("{label} undone{reason}; {change}"),
    }
}

/// The amendment's row: postings to `redone`'s balances, words with `reason`, reckoning.
fn amendment_row(
    index: usize,
    kind: EventKind,
    label: &str,
    reason: Option<&str>,
    postings: Vec<Posting>,
    redone: &mut Redone,
    void: bool,
) -> Row {
    let (words, steps, rules) = match redone.reckoning.take() {
        Some((words, steps, rules)) => (Some(words), steps, rules),
        None => (None, Vec::new(), Vec::new()),
    };
    let explanation = amendment_words(label, reason, words, &postings);
    let title = format!(
        "{} {}",
        if void { "undoes" } else { "corrects" },
        label.to_lowercase()
    );
    let outcome = Outcome {
        scores_after: redone
            .last_scores
            .take()
            .or_else(|| redone.core.engine.scores()),
        rules,
        ..Outcome::new(postings, explanation, SheetLine::titled(title)).with_steps(steps)
    };
    row(Some(index), kind, None, outcome)
}

/// What row `r` shows as standing when `last_event` finished a game shown again under it.
fn final_tally(
    core: &Core,
    r: &Row,
    last_event: Option<usize>,
    last_cells: Vec<Cell>,
) -> Option<Vec<Cell>> {
    let f = core
        .finished
        .last()
        .filter(|f| Some(f.event) == last_event && r.game_ends.iter().any(|e| e.shows(f)))?;
    // The game award counts in the final tally it is awarded in.
    let award = f.end.award.as_ref();
    let cells = last_cells
        .into_iter()
        .map(|c| {
            let extra = award
                .filter(|a| a.to == c.account && a.tally == c.tally)
                .map_or(0, |a| a.amount);
            Cell {
                added: None,
                running: c.running.map(|v| v + extra),
                ..c
            }
        })
        .collect();
    Some(cells)
}

impl Fold {
    /// Why event `target` cannot be amended, in player words.
    fn not_amendable(&self, target: usize) -> String {
        let row = self.row_of.get(&target).and_then(|&r| self.rows.get(r));
        match row.and_then(|r| r.amends) {
            Some(Amend {
                target: of,
                void: false,
            }) => format!(
                "event {target} is a correction of event {of}, and a correction is not undone or corrected itself: to take it back, correct event {of} again"
            ),
            Some(Amend {
                target: of,
                void: true,
            }) => format!(
                "event {target} is the undo of event {of}, and an undo is not undone or corrected itself: to take it back, enter event {of} again as a new event"
            ),
            None if row.is_some_and(Row::struck) => {
                format!("event {target} was already undone")
            }
            None => format!("event {target} cannot be undone or corrected"),
        }
    }
}

/// A standing event an amendment replays: as stored, or the correction's replacement.
enum Replayed<'a> {
    Stored(&'a str),
    Replacement(Value),
}

impl Replayed<'_> {
    /// The event to apply, and its text when it is the stored one; stored text that no
    /// longer parses reads as `Null`, refused as "not an object".
    fn read(self) -> (Value, Option<Box<str>>) {
        match self {
            Replayed::Stored(text) => (
                serde_json::from_str(text).unwrap_or(Value::Null),
                Some(Box::from(text)),
            ),
            Replayed::Replacement(event) => (event, None),
        }
    }
}

/// A refusal `r` met replaying event `i` for the amendment at `index`: of the replacement
/// itself (`target`), or of a later entry the change would make refused.
fn later_refused(index: usize, target: bool, i: usize, r: Refusal) -> Refusal {
    if target {
        return Refusal::at(index, Field::name("replacement").join(r.field), r.message)
            .citing(r.rule);
    }
    Refusal::at(
        index,
        "event",
        format!(
            "with this change a later entry (event {i}) would be refused: {}",
            r.message
        ),
    )
    .citing(r.rule)
}
