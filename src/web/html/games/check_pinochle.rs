//! The Check Pinochle pages (rules §1.7): the agreements, the score sheet with a points
//! column and a checks column per partnership, and the hand form.
//!
//! Every number on the sheet comes from the ledger: each hand's `scores_after` (points and
//! checks per side, running) and each event's postings (money). The words that itemise a
//! hand's check awards come from the engine's own scoring of the stored hand
//! ([`hand::score`]); the view adds them up and compares them with the ledger, and shows
//! the engine's explanation instead if they ever disagree. No check table or scoring rule
//! lives here.
//!
//! Corrections never erase (see [`crate::format::corrections`]): a corrected or undone
//! hand stays on the sheet struck through, saying when and by which event; the correction
//! or undo has its own row with the points and checks as they now stand and its money. A
//! game whose ending a correction changed is struck where it was shown and shown again, as
//! the session now stands, under the correction; the hands after it count on from there.

use std::collections::HashMap;

use askama::Template;
use serde_json::{Map, Value};

use super::history::{History, Shown};
use super::{
    AgreementField, FieldKind, GameView, RenderPage, given, number, signed, with_next_dealer,
};
use crate::error::AppError;
use crate::ledger::Posting;
use crate::rules::Suit;
use crate::rules::check_pinochle::agreements::{Agreements, Settlement, Unfinished};
use crate::rules::check_pinochle::checks::{GameAward, MIN_BID, MeldCheck};
use crate::rules::check_pinochle::hand::{self, Hand, Scored};
use crate::rules::partnership::{self, ALL_TRICK_POINTS, PerSide, Seating, Side};
use crate::service::Loaded;

/// The registration of the Check Pinochle pages.
pub static VIEW: CheckPinochleView = CheckPinochleView;

/// The Check Pinochle pages.
pub struct CheckPinochleView;

/// A side's two numbers on one row of the sheet: what the row added and the running total.
pub struct Tally {
    /// What the row added: `"+130"`, `"−350"`, `"0"`, or words such as `"no checks"`.
    pub added: String,
    /// The running total after the row: `"−350"`, `"21"`.
    pub running: String,
    /// `"plus"`, `"minus"` or empty, for colour.
    pub class: &'static str,
}

/// One side's columns on a hand's row: points and checks.
pub struct SideCells {
    /// The points column.
    pub points: Tally,
    /// The checks column.
    pub checks: Tally,
}

/// What one side melded, took and was awarded on a hand, in the table's words.
pub struct SideDetail {
    /// `"NS"` or `"EW"`.
    pub side: &'static str,
    /// `"meld 140"`.
    pub meld: String,
    /// The check-bearing melds entered: `"100 aces"`, `"2 × 60 queens"`.
    pub check_melds: Vec<String>,
    /// `"tricks 180"`, with `"all 12"` when the side won every trick.
    pub tricks: String,
    /// The check awards, itemised: `"+7 make 300–340"`, `"+2 100 aces"`.
    pub awards: Vec<String>,
    /// Anything lost: `"meld and tricks lost; flush cancelled"`.
    pub lost: String,
    /// Whether this side bid and fell short.
    pub set: bool,
}

/// A hand's rows.
pub struct HandRow {
    /// 1, 2, … within the game.
    pub number: usize,
    /// Who won the bid.
    pub bidder: String,
    /// `"NS"`/`"EW"`, the bidder's partnership.
    pub bidding: &'static str,
    /// The bid, in points.
    pub bid: String,
    /// The trump symbol.
    pub trump: String,
    /// Who dealt.
    pub dealer: String,
    /// The dealer had to bid after three passes.
    pub forced: bool,
    /// Whether the bid was made (else the bidders fell short).
    pub made: bool,
    /// The sides whose running score is below zero after the hand.
    pub in_the_hole: Vec<&'static str>,
    /// NS then EW.
    pub cells: [SideCells; 2],
    /// NS then EW; empty when the itemisation is not available (the explanation then
    /// carries it).
    pub details: Vec<SideDetail>,
    /// The engine's explanation.
    pub explanation: String,
    /// Whether a later correction or undo changed this hand (shown struck through).
    pub struck: bool,
    /// When and by which event it was changed, in words; empty if it stands.
    pub changed: String,
    /// The page that corrects this hand, while it stands as entered in an open session.
    pub correct_link: Option<String>,
}

/// One player's money on a game or close row.
pub struct Payment {
    /// The player.
    pub player: String,
    /// `"+1.00"` / `"−1.00"`.
    pub amount: String,
    /// `"plus"`/`"minus"`.
    pub class: &'static str,
}

/// The closing row of a game.
pub struct GameRow {
    /// The game's number in the session.
    pub game: usize,
    /// `"NS"`/`"EW"`.
    pub winner: String,
    /// The winners' names: `"Ann & Cy"`.
    pub winner_names: String,
    /// How it was decided, in words.
    pub decided: String,
    /// The game award: `"+7"`.
    pub award: String,
    /// The award in words (`"game, Scarne"`).
    pub award_words: String,
    /// Final points (NS, EW) and checks including the award (NS, EW), as the columns show.
    pub cells: [SideCells; 2],
    /// Each player's money for the game, seat order.
    pub payments: Vec<Payment>,
    /// Whether a later correction or undo changed how this game ended (shown struck
    /// through); the game's row as it now stands follows that correction's row.
    pub struck: bool,
    /// When and by which event it was changed, in words; empty if it stands.
    pub changed: String,
}

/// Any other event: a payment or the close.
pub struct NoteRow {
    /// `"payment"`, `"close"`.
    pub label: String,
    /// Each player's money.
    pub payments: Vec<Payment>,
    /// The engine's explanation.
    pub explanation: String,
    /// Whether a later correction or undo changed this event (shown struck through).
    pub struck: bool,
    /// When and by which event it was changed, in words; empty if it stands.
    pub changed: String,
}

/// A correction or an undo: what it changes, the sheet as it now stands, and the money it
/// moves (the net difference).
pub struct ChangeRow {
    /// `"corrects event 3"`, `"undoes event 3"`.
    pub note: String,
    /// NS then EW: points and checks after it (the ledger's `scores_after`); empty when the
    /// ledger gives none.
    pub cells: Vec<SideCells>,
    /// Each player's money, the net difference.
    pub payments: Vec<Payment>,
    /// The explanation, with the reason.
    pub explanation: String,
    /// The page that corrects the hand again, for the latest correction of a hand that
    /// still stands in an open session.
    pub correct_link: Option<String>,
}

/// One block of the sheet, in ledger order.
pub enum Row {
    /// A game starts (shown when the session has more than one).
    GameStart(usize),
    /// Scores carried in from a paper sheet.
    Opening([String; 2]),
    /// A deal.
    Hand(Box<HandRow>),
    /// The end of a game.
    Game(Box<GameRow>),
    /// A payment or the close.
    Note(NoteRow),
    /// A correction or an undo.
    Change(Box<ChangeRow>),
}

#[derive(Template)]
#[template(path = "games/check_pinochle/sheet.html")]
struct Sheet {
    sides: Vec<(&'static str, String)>,
    rows: Vec<Row>,
    game: usize,
    totals: [SideCells; 2],
}

/// A side's block of the hand form.
struct SideForm {
    side: &'static str,
    names: String,
    meld_checks: Vec<(String, &'static str, usize)>,
}

#[derive(Template)]
#[template(path = "games/check_pinochle/hand_form.html")]
struct HandForm {
    session_id: i64,
    seated: Vec<String>,
    expected_events: usize,
    min_bid: i64,
    all_trick_points: i64,
    values: HashMap<String, String>,
    error_field: Option<String>,
    suits: Vec<(&'static str, &'static str)>,
    sides: Vec<SideForm>,
}

impl HandForm {
    fn value(&self, field: &str) -> String {
        self.values.get(field).cloned().unwrap_or_default()
    }

    fn count(&self, field: &str) -> String {
        self.values
            .get(field)
            .filter(|v| !v.trim().is_empty())
            .cloned()
            .unwrap_or_else(|| "0".into())
    }

    fn selected(&self, field: &str, option: &str) -> bool {
        self.values.get(field).is_some_and(|v| v == option)
    }

    fn checked(&self, field: &str) -> bool {
        self.values.get(field).is_some_and(|v| !v.is_empty())
    }

    fn invalid(&self, field: &str) -> bool {
        self.error_field.as_deref() == Some(field)
    }
}

fn agreements_of(loaded: &Loaded) -> Result<Agreements, AppError> {
    Agreements::read(&loaded.doc.agreements)
        .map_err(|e| AppError::Internal(format!("stored agreements: {e}")))
}

fn seating_of(loaded: &Loaded) -> Result<Seating, AppError> {
    Seating::new(&loaded.doc.players)
        .map_err(|e| AppError::Internal(format!("stored players: {e}")))
}

/// Points as the table writes them: `"−350"` with a true minus sign.
fn points_text(points: i64) -> String {
    if points < 0 {
        format!("−{}", points.unsigned_abs())
    } else {
        points.to_string()
    }
}

/// What a row added: `"+130"`, `"−350"`, `"0"`.
fn added_text(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        points_text(n)
    }
}

fn class_of(n: i64) -> &'static str {
    match n.signum() {
        1 => "plus",
        -1 => "minus",
        _ => "",
    }
}

fn tally(added: i64, running: i64) -> Tally {
    Tally {
        added: added_text(added),
        running: points_text(running),
        class: class_of(added),
    }
}

/// The side totals in a `scores_after` object (`{"NS": 320, "EW": 130}`).
fn per_side(value: Option<&Value>) -> Option<PerSide<i64>> {
    let v = value?;
    Some(PerSide::new(v.get("NS")?.as_i64()?, v.get("EW")?.as_i64()?))
}

/// The money of each player in a posting list, in seat order, without zeros.
fn payments(postings: &[Posting], players: &[String]) -> Vec<Payment> {
    players
        .iter()
        .filter_map(|p| {
            let cents: i64 = postings
                .iter()
                .filter(|x| &x.account == p)
                .map(|x| x.amount.cents())
                .sum();
            (cents != 0).then(|| Payment {
                player: p.clone(),
                amount: signed(cents),
                class: class_of(cents),
            })
        })
        .collect()
}

/// A side's melds and tricks as entered, and its awards as the engine scored them.
fn side_detail(side: Side, hand: &Hand, scored: &Scored) -> SideDetail {
    let input = &hand.sides[side];
    let score = &scored.sides[side];
    let set = side == hand.bidding && !scored.made;
    let check_melds = MeldCheck::ALL
        .iter()
        .filter_map(|m| {
            let n = input.meld_checks.iter().filter(|x| *x == m).count();
            match n {
                0 => None,
                1 => Some(m.words().to_string()),
                n => Some(format!("{n} × {}", m.words())),
            }
        })
        .collect();
    let mut tricks = format!("tricks {}", input.hand.tricks);
    if input.all_tricks {
        tricks.push_str(", all 12");
    }
    // The engine counts less than meld + tricks only when the meld needs a trick.
    let meld_lost =
        !set && input.hand.meld > 0 && score.points < input.hand.meld + input.hand.tricks;
    let lost = [
        set.then(|| "meld and tricks lost".to_string()),
        meld_lost.then(|| format!("meld {} lost without a trick", input.hand.meld)),
        score.lost.clone(),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("; ");
    SideDetail {
        side: side.name(),
        meld: format!("meld {}", input.hand.meld),
        check_melds,
        tricks,
        awards: score
            .awards
            .iter()
            .map(|a| format!("+{} {}", a.checks, a.words))
            .collect(),
        lost,
        set,
    }
}

/// The engine's scoring of a stored hand, kept only when it agrees with the ledger's numbers
/// for that hand: the points of both sides, and the checks of every side but the game's
/// winner (whose checks on the last hand also hold the game award).
fn itemisation(
    event: &Map<String, Value>,
    seating: &Seating,
    agreements: &Agreements,
    added_points: &PerSide<i64>,
    added_checks: &PerSide<i64>,
    winner: Option<Side>,
) -> Option<(Hand, Scored)> {
    let hand = hand::read(event, seating).ok()?;
    let scored = hand::score(&hand, agreements);
    let agrees = Side::BOTH.iter().all(|&side| {
        scored.sides[side].points == added_points[side]
            && (Some(side) == winner || scored.sides[side].checks() == added_checks[side])
    });
    agrees.then_some((hand, scored))
}

/// A value of a stored event as text (`"Ann"`, `"350"`).
fn text(event: &Map<String, Value>, field: &str) -> String {
    match event.get(field) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

/// The points and checks of a `scores_after` object of a hand (`{"game": 1, "scores":
/// {…}, "checks": {…}}`), with the game's number and whether the hand ended it.
fn sheet_after(after: Option<&Value>) -> Option<(usize, PerSide<i64>, PerSide<i64>, bool)> {
    let after = after?;
    let game = usize::try_from(after.get("game")?.as_u64()?).ok()?;
    Some((
        game,
        per_side(after.get("scores"))?,
        per_side(after.get("checks"))?,
        after.get("game_over").is_some(),
    ))
}

/// The winners named in a hand's `scores_after`, when the hand ended the game.
fn winner_of(after: &Value) -> Option<Side> {
    after
        .get("game_over")
        .and_then(|g| g.get("winner"))
        .and_then(Value::as_str)
        .and_then(Side::from_name)
}

/// The closing row of game `game`, from the `scores_after` of the hand that ended it (final
/// points, and checks with the game award) and that hand's postings (the payments).
/// `award` is the game award as the sheet measured it on the hand's row; `None` when it
/// could not be told apart from the hand's own checks. `None` if the hand ended no game.
fn game_row(
    agreements: &Agreements,
    seating: &Seating,
    players: &[String],
    game: usize,
    after: &Value,
    award: Option<i64>,
    postings: &[Posting],
) -> Option<GameRow> {
    let w = winner_of(after)?;
    let (_, points, checks, _) = sheet_after(Some(after))?;
    let (award_checks, award_words) = agreements.game_award.checks(points[w], points[w.other()]);
    let (award, award_words) = match award {
        Some(a) if a == award_checks => (added_text(a), award_words),
        Some(a) => (added_text(a), "game".to_string()),
        None => (
            String::new(),
            "the game award is in the hand's checks".to_string(),
        ),
    };
    let decided = match after
        .get("game_over")
        .and_then(|g| g.get("decided_by"))
        .and_then(Value::as_str)
    {
        Some("both_out_bidder_wins") => format!(
            "both sides passed {} on one hand: the bidders win",
            agreements.target
        ),
        _ => format!(
            "reached {} (target {})",
            points_text(points[w]),
            agreements.target
        ),
    };
    let cells = Side::BOTH.map(|side| SideCells {
        points: Tally {
            added: String::new(),
            running: points_text(points[side]),
            class: "",
        },
        checks: Tally {
            added: if side == w {
                award.clone()
            } else {
                String::new()
            },
            running: points_text(checks[side]),
            class: if side == w { "plus" } else { "" },
        },
    });
    Some(GameRow {
        game,
        winner: w.name().into(),
        winner_names: seating.members(w).join(" & "),
        decided,
        award,
        award_words,
        cells,
        payments: payments(postings, players),
        struck: false,
        changed: String::new(),
    })
}

/// Walks the ledger and builds the sheet's rows; see the module documentation for where
/// each number comes from.
fn rows(loaded: &Loaded) -> Result<Vec<Row>, AppError> {
    let agreements = agreements_of(loaded)?;
    let seating = seating_of(loaded)?;
    // The engine marks the hand that ends a game with `game_over` in its `scores_after`.
    let history = History::read(loaded, &|entry, _| {
        entry
            .scores_after
            .as_ref()
            .is_some_and(|a| a.get("game_over").is_some())
    })?;
    let opening = partnership::read_opening_scores(loaded.doc.opening_scores.as_ref())
        .map_err(|e| AppError::Internal(format!("stored opening scores: {e}")))?;
    let players = &loaded.doc.players;
    let mut rows = Vec::new();
    // Each game row shown, by its place in `rows`.
    let mut shown: Shown<usize> = Shown::new();
    // The game whose hands are being read (0 before the first hand).
    let mut game = 0;
    let mut before_points = opening;
    let mut before_checks = PerSide::default();
    let mut hand_number = 0;
    for entry in &loaded.ledger.events {
        let index = entry.seq.checked_sub(1);
        let event = index
            .and_then(|i| loaded.doc.events.get(i))
            .and_then(Value::as_object);
        let (struck, changed) = index.map_or((false, String::new()), |i| {
            (history.struck(i), history.changed(i))
        });
        if let Some((index, target)) = index.and_then(|i| Some((i, history.target(i)?))) {
            // A correction or undo: the sheet as the session now stands, and every game
            // whose ending it changed, struck where it was shown and shown anew here.
            let standing: Vec<(usize, &Value)> = history
                .standing_after(index)
                .into_iter()
                .filter(|(_, e)| e.kind == "hand")
                .filter_map(|(i, e)| Some((i, e.scores_after.as_ref()?)))
                .collect();
            let now = history.games_after(index);
            // The game the last hand standing finished, if it did: the next starts fresh.
            let just_finished = now
                .last()
                .filter(|c| Some(c.event) == standing.last().map(|(i, _)| *i))
                .map(|c| c.number);
            let (gone, again) = shown.amend(target, &now);
            let shown_here = just_finished.is_some_and(|n| again.iter().any(|c| c.number == n));
            // `scores_after` is the last hand's; when that hand finished a game not shown
            // again here, they are that game's final numbers, not the game in progress.
            let (game_now, points, checks) = match just_finished {
                Some(n) if !shown_here => (n + 1, PerSide::default(), PerSide::default()),
                _ => sheet_after(entry.scores_after.as_ref())
                    .or_else(|| sheet_after(standing.last().map(|(_, a)| *a)))
                    .map_or((0, opening, PerSide::default()), |(g, p, c, _)| (g, p, c)),
            };
            rows.push(Row::Change(Box::new(ChangeRow {
                note: history.note(index).unwrap_or_default(),
                cells: Side::BOTH
                    .iter()
                    .map(|&side| SideCells {
                        points: Tally {
                            added: String::new(),
                            running: points_text(points[side]),
                            class: class_of(points[side].min(0)),
                        },
                        checks: Tally {
                            added: String::new(),
                            running: points_text(checks[side]),
                            class: "",
                        },
                    })
                    .collect(),
                payments: payments(&entry.postings, players),
                explanation: entry.explanation.clone(),
                correct_link: history.correct_link(index),
            })));
            for (at, still_over) in gone {
                if let Some(Row::Game(g)) = rows.get_mut(at) {
                    g.struck = true;
                    g.changed = history.closing_changed(index, still_over);
                }
            }
            for closing in again {
                let Some(after) = closing.entry.scores_after.as_ref() else {
                    continue;
                };
                // The award as the engine gives it for these final points.
                let award =
                    sheet_after(Some(after))
                        .zip(winner_of(after))
                        .map(|((_, points, _, _), w)| {
                            agreements.game_award.checks(points[w], points[w.other()]).0
                        });
                if let Some(row) = game_row(
                    &agreements,
                    &seating,
                    players,
                    closing.number,
                    after,
                    award,
                    &closing.entry.postings,
                ) {
                    shown.show(rows.len(), index, closing.clone());
                    rows.push(Row::Game(Box::new(row)));
                }
            }
            if shown_here {
                // The game just shown is over: the next hand opens the next one.
                game = game_now;
            } else {
                // Back in (or on to) another game than the last hand's: say which.
                if game_now != 0 && game_now != game {
                    rows.push(Row::GameStart(game_now));
                }
                game = game_now;
                hand_number = standing
                    .iter()
                    .filter(|(_, a)| sheet_after(Some(a)).is_some_and(|s| s.0 == game_now))
                    .count();
            }
            before_points = points;
            before_checks = checks;
            continue;
        }
        let after = entry.scores_after.as_ref();
        let sides =
            after.and_then(|a| Some((per_side(a.get("scores"))?, per_side(a.get("checks"))?)));
        let (Some(index), Some(event), "hand", Some(after), Some((points, checks))) =
            (index, event, entry.kind.as_str(), after, sides)
        else {
            rows.push(Row::Note(NoteRow {
                label: entry.kind.replace('_', " "),
                payments: payments(&entry.postings, players),
                explanation: entry.explanation.clone(),
                struck,
                changed,
            }));
            continue;
        };
        let this_game = after
            .get("game")
            .and_then(Value::as_u64)
            .map_or(game.max(1), |g| g as usize);
        if this_game != game {
            if game != 0 {
                // A new game: points and checks start afresh.
                before_points = PerSide::default();
                before_checks = PerSide::default();
            }
            game = this_game;
            hand_number = 0;
            rows.push(Row::GameStart(game));
            if game == 1 && opening != PerSide::default() {
                rows.push(Row::Opening([
                    points_text(opening.ns),
                    points_text(opening.ew),
                ]));
            }
        }
        hand_number += 1;
        let added_points = PerSide::from_fn(|s| points[s] - before_points[s]);
        let mut added_checks = PerSide::from_fn(|s| checks[s] - before_checks[s]);
        before_points = points;
        before_checks = checks;
        let winner = winner_of(after);
        let itemised = itemisation(
            event,
            &seating,
            &agreements,
            &added_points,
            &added_checks,
            winner,
        );
        // The game award is what the winners' checks grew by beyond the hand's own awards.
        let award = match (winner, &itemised) {
            (Some(w), Some((_, s))) => Some(added_checks[w] - s.sides[w].checks()),
            _ => None,
        };
        if let (Some(w), Some(a)) = (winner, award) {
            added_checks[w] -= a;
        }
        let bidder = text(event, "bidder");
        let bidding = seating.side_of(&bidder);
        // Only a side that bid and fell short scores below zero on a hand (rules §1.7).
        let made = bidding.is_none_or(|b| added_points[b] >= 0);
        let cells = Side::BOTH.map(|side| {
            // The game award goes on the game's own row, after this one.
            let running_checks = checks[side] - award.filter(|_| winner == Some(side)).unwrap_or(0);
            let set = !made && bidding == Some(side);
            SideCells {
                points: tally(added_points[side], points[side]),
                checks: if set && added_checks[side] == 0 {
                    Tally {
                        added: "no checks".into(),
                        running: points_text(running_checks),
                        class: "minus",
                    }
                } else {
                    tally(added_checks[side], running_checks)
                },
            }
        });
        let trump = event
            .get("trump")
            .and_then(|t| serde_json::from_value::<Suit>(t.clone()).ok())
            .map_or_else(|| text(event, "trump"), |s| s.symbol().to_string());
        rows.push(Row::Hand(Box::new(HandRow {
            number: hand_number,
            bidder,
            bidding: bidding.map_or("", Side::name),
            bid: text(event, "bid"),
            trump,
            dealer: text(event, "dealer"),
            forced: event.get("dealer_forced").and_then(Value::as_bool) == Some(true),
            made,
            in_the_hole: Side::BOTH
                .into_iter()
                .filter(|&side| points[side] < 0)
                .map(Side::name)
                .collect(),
            cells,
            details: itemised
                .as_ref()
                .map(|(h, s)| {
                    Side::BOTH
                        .iter()
                        .map(|&side| side_detail(side, h, s))
                        .collect()
                })
                .unwrap_or_default(),
            explanation: entry.explanation.clone(),
            struck,
            changed,
            correct_link: history.correct_link(index),
        })));
        if let Some(row) = game_row(
            &agreements,
            &seating,
            players,
            game,
            after,
            award,
            &entry.postings,
        ) {
            if let Some(closing) = history.finished_by(index) {
                shown.show(rows.len(), index, closing.clone());
            }
            rows.push(Row::Game(Box::new(row)));
        }
    }
    for at in shown.stale(&loaded.ledger.games) {
        if let Some(Row::Game(g)) = rows.get_mut(at) {
            g.struck = true;
            g.changed = "no longer stands".into();
        }
    }
    Ok(rows)
}

/// The side names for the form and the sheet's head: `("NS", "Ann & Cy")`.
fn side_names(seating: &Seating) -> Vec<(&'static str, String)> {
    Side::BOTH
        .iter()
        .map(|&s| (s.name(), seating.members(s).join(" & ")))
        .collect()
}

/// The contract bands of the agreed table in words, `"200–240 2/4"` (make/defeat), read from
/// the engine's table up to the first step above the priced bands (600–640).
fn bands_words(agreements: &Agreements) -> String {
    let table = &agreements.table;
    let mut bands: Vec<(String, i64, i64)> = Vec::new();
    for bid in (MIN_BID..=640).step_by(10) {
        let label = table.band_label(bid);
        if bands.last().is_none_or(|b| b.0 != label) {
            bands.push((label, table.make_checks(bid), table.defeat_checks(bid)));
        }
    }
    let open_ended = bands.last().is_some_and(|b| b.0.ends_with("or over"));
    let mut words = bands
        .iter()
        .map(|(label, make, defeat)| format!("{label} {make}/{defeat}"))
        .collect::<Vec<_>>()
        .join(", ");
    if !open_ended {
        words.push_str(", …");
    }
    words
}

/// Reads a number of checks-bearing melds from the form: empty means none.
fn meld_count(form: &HashMap<String, String>, field: &str) -> Result<usize, AppError> {
    let n = number(form, field)?.unwrap_or(0);
    usize::try_from(n)
        .ok()
        .filter(|n| *n <= 99)
        .ok_or_else(|| AppError::BadRequest {
            field: field.into(),
            message: format!("{n} is not a number of melds"),
        })
}

impl GameView for CheckPinochleView {
    fn agreement_fields(&self) -> Vec<AgreementField> {
        vec![
            AgreementField {
                name: "stake",
                label: "Stake per check",
                kind: FieldKind::Money,
                default: "0.05",
                help: "The side with more checks when a game ends is paid the difference × this; Scarne suggests 5¢ (rules §1.7).",
            },
            AgreementField {
                name: "check_table",
                label: "Check table",
                kind: FieldKind::Choice(vec![(
                    "hoyle",
                    "hoyle: make 200–240 = 2 … 550–590 = 30, defeat twice (Bicycle)",
                )]),
                default: "hoyle",
                help: "Every Hoyle number is sourced (rules §1.7). Scarne's table needs its 200–590 bands written out (make_checks) and a custom table its own bands: start those sessions from a session document (the API).",
            },
            AgreementField {
                name: "game_award",
                label: "Game award",
                kind: FieldKind::Choice(vec![
                    ("scarne", "scarne: 7 checks"),
                    (
                        "hoyle",
                        "hoyle: 10 + 1 per 100 of the margin + 5 if the losers are minus",
                    ),
                    ("time1940", "time1940: 15 checks"),
                ]),
                default: "scarne",
                help: "Checks for winning a game (rules §1.7, §3 item 20).",
            },
            AgreementField {
                name: "target",
                label: "Game (points)",
                kind: FieldKind::Number,
                default: "1000",
                help: "The first side to reach it wins the game; if both do on one hand, the bidders win (rules §1.7).",
            },
            AgreementField {
                name: "settlement",
                label: "Who pays whom",
                kind: FieldKind::Choice(vec![
                    (
                        "per_player",
                        "per player: each loser pays his opposite number",
                    ),
                    (
                        "per_partnership",
                        "per partnership: the difference once, split",
                    ),
                ]),
                default: "per_player",
                help: "Per player: each loser pays the difference × stake to one opponent (rules §1.7, §3 item 24).",
            },
            AgreementField {
                name: "meld_needs_trick",
                label: "Meld and meld checks need a trick",
                kind: FieldKind::Bool,
                default: "yes",
                help: "A side that wins no trick loses its meld and its meld checks (rules §1.7, §3 item 22).",
            },
            AgreementField {
                name: "slam_and_count_cumulative",
                label: "All 12 tricks and all 250 count add up",
                kind: FieldKind::Bool,
                default: "yes",
                help: "When both happen on one hand, both awards count; no gives only the larger (rules §1.7, §3 item 23).",
            },
            AgreementField {
                name: "roundhouse_includes_kings_queens_checks",
                label: "A roundhouse also earns the 80 kings and 60 queens checks",
                kind: FieldKind::Bool,
                default: "no",
                help: "By default the roundhouse's checks replace them (rules §1.7, §3 item 21).",
            },
            AgreementField {
                name: "unfinished_game",
                label: "A game still open at the close",
                kind: FieldKind::Choice(vec![
                    ("settle", "settle: its checks are paid as they stand"),
                    ("void", "void: nothing is paid for it"),
                ]),
                default: "settle",
                help: "Neither source says; settling pays every check won, without a game award (rules §1.7).",
            },
        ]
    }

    fn agreements_summary(&self, loaded: &Loaded) -> Vec<(String, String)> {
        let Ok(a) = agreements_of(loaded) else {
            return Vec::new();
        };
        let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
        let meld_checks = MeldCheck::ALL
            .iter()
            .map(|m| format!("{} {}", m.words(), a.meld_checks.get(*m)))
            .collect::<Vec<_>>()
            .join(", ");
        let mut table = format!(
            "{}: make/defeat {}; all 12 tricks {}",
            a.table.name,
            bands_words(&a),
            a.table.slam
        );
        if a.table.all_count > 0 {
            table.push_str(&format!("; all 250 count {}", a.table.all_count));
        }
        let game_award = match a.game_award {
            GameAward::Scarne => "scarne: 7 checks".to_string(),
            GameAward::Hoyle => {
                "hoyle: 10 + 1 per 100 points (or part) of the margin + 5 if the losers are minus"
                    .to_string()
            }
            GameAward::Time1940 => "time1940: 15 checks".to_string(),
            GameAward::Fixed(n) => format!("{n} checks"),
        };
        let settlement = match a.settlement {
            Settlement::PerPlayer => {
                "per player: each loser pays his opposite number the difference × stake"
            }
            Settlement::PerPartnership => {
                "per partnership: the difference × stake once, each partner half"
            }
        };
        let unfinished = match a.unfinished_game {
            Unfinished::Settle => "its checks are paid as they stand",
            Unfinished::Void => "nothing is paid for it",
        };
        vec![
            (
                "Stake".into(),
                format!("{} {} a check", a.stake, loaded.doc.currency),
            ),
            ("Game".into(), format!("{} points", a.target)),
            ("Check table".into(), table),
            ("Meld checks".into(), meld_checks),
            ("Game award".into(), game_award),
            ("Who pays".into(), settlement.into()),
            ("Meld needs a trick".into(), yes_no(a.meld_needs_trick)),
            (
                "Slam and count".into(),
                if a.slam_and_count_cumulative {
                    "both count when both happen".to_string()
                } else {
                    "only the larger when both happen".to_string()
                },
            ),
            (
                "Roundhouse".into(),
                if a.roundhouse_includes_kings_queens {
                    "also earns the 80 kings and 60 queens checks".to_string()
                } else {
                    "its checks replace the 80 kings and 60 queens checks".to_string()
                },
            ),
            (
                "Open at close".into(),
                format!("a game still open: {unfinished}"),
            ),
        ]
    }

    fn sheet(&self, loaded: &Loaded) -> Result<String, AppError> {
        let seating = seating_of(loaded)?;
        let rows = rows(loaded)?;
        let points = per_side(loaded.ledger.scores.as_ref()).unwrap_or_default();
        let checks = per_side(loaded.ledger.checks.as_ref()).unwrap_or_default();
        let totals = Side::BOTH.map(|side| SideCells {
            points: Tally {
                added: String::new(),
                running: points_text(points[side]),
                class: class_of(points[side]),
            },
            checks: Tally {
                added: String::new(),
                running: points_text(checks[side]),
                class: "",
            },
        });
        Sheet {
            sides: side_names(&seating),
            rows,
            game: loaded.ledger.games.len() + 1,
            totals,
        }
        .render_page()
    }

    fn hand_form(
        &self,
        loaded: &Loaded,
        values: &HashMap<String, String>,
        error_field: Option<&str>,
    ) -> Result<String, AppError> {
        let seating = seating_of(loaded)?;
        let values = with_next_dealer(loaded, values);
        let sides = side_names(&seating)
            .into_iter()
            .map(|(side, names)| SideForm {
                side,
                names,
                meld_checks: MeldCheck::ALL
                    .iter()
                    .map(|m| {
                        (
                            format!("{side}.meld_checks.{}", m.id()),
                            m.words(),
                            m.most_per_deal(),
                        )
                    })
                    .collect(),
            })
            .collect();
        HandForm {
            session_id: loaded.id,
            seated: loaded.seated.clone(),
            expected_events: loaded.doc.events.len(),
            min_bid: MIN_BID,
            all_trick_points: ALL_TRICK_POINTS,
            values,
            error_field: error_field.map(String::from),
            suits: Suit::ALL.iter().map(|s| (s.name(), s.symbol())).collect(),
            sides,
        }
        .render_page()
    }

    fn hand_event(&self, form: &HashMap<String, String>) -> Result<Value, AppError> {
        let missing = |field: &str, message: &str| AppError::BadRequest {
            field: field.into(),
            message: message.into(),
        };
        let mut event = Map::new();
        event.insert("type".into(), "hand".into());
        for (field, question) in [
            ("dealer", "who dealt?"),
            ("bidder", "who won the bid?"),
            ("trump", "which suit is trump?"),
        ] {
            let v = given(form, field).ok_or_else(|| missing(field, question))?;
            event.insert(field.into(), v.into());
        }
        let bid = number(form, "bid")?.ok_or_else(|| missing("bid", "what was the bid?"))?;
        event.insert("bid".into(), bid.into());
        if given(form, "dealer_forced").is_some() {
            event.insert("dealer_forced".into(), true.into());
        }
        for side in Side::BOTH {
            let name = side.name();
            let field = |f: &str| format!("{name}.{f}");
            let mut entry = Map::new();
            if let Some(meld) = number(form, &field("meld"))? {
                entry.insert("meld".into(), meld.into());
            }
            let mut list = Vec::new();
            for meld in MeldCheck::ALL {
                let n = meld_count(form, &field(&format!("meld_checks.{}", meld.id())))?;
                list.extend(std::iter::repeat_n(Value::from(meld.id()), n));
            }
            if !list.is_empty() {
                entry.insert("meld_checks".into(), Value::Array(list));
            }
            let tricks = number(form, &field("tricks"))?.ok_or_else(|| {
                missing(
                    &field("tricks"),
                    &format!("enter {name}'s trick points (0 if none)"),
                )
            })?;
            entry.insert("tricks".into(), tricks.into());
            // Ticked boxes only: left out, the engine reads them from the trick points.
            for flag in ["won_trick", "all_tricks"] {
                if given(form, &field(flag)).is_some() {
                    entry.insert(flag.into(), true.into());
                }
            }
            event.insert(name.into(), Value::Object(entry));
        }
        Ok(Value::Object(event))
    }
}
