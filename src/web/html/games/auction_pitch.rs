//! The Auction Pitch pages (rules §1.4): the agreements, the score sheet with one column of
//! running scores per player as on a paper sheet, and the hand form (pitcher, bid, who took
//! High, Low, Jack and Game).
//!
//! The view holds no game rules: the running scores are the ledger's `scores_after`, the
//! winners the ledger's `games`, the payments the ending event's postings, and whether the
//! pitcher was set back is asked of the engine ([`score::parts`]).
//!
//! Corrections never erase (see [`crate::format::corrections`]): a corrected or undone
//! hand stays on the sheet struck through, saying when and by which event; the correction
//! or undo has its own line with the scores as they now stand and its money. A game whose
//! ending a correction changed is struck where it was shown and shown again, as the
//! session now stands, under the correction ([`history`]).

use std::collections::HashMap;

use askama::Template;
use serde_json::{Map, Value};

use super::history::{Closing, History, Shown};
use super::{
    AgreementField, FieldKind, GameView, RenderPage, given, number, signed, with_next_dealer,
};
use crate::error::AppError;
use crate::ledger::Posting;
use crate::rules::Table;
use crate::rules::auction_pitch::agreements::{
    Agreements, NegativeDifference, SmudgeRule, Variant,
};
use crate::rules::auction_pitch::hand::{self, Deal, MAX_BID, Point};
use crate::rules::auction_pitch::score::{self, Outcome, num};
use crate::service::Loaded;

/// The registration of the Auction Pitch pages.
pub static VIEW: AuctionPitchView = AuctionPitchView;

/// The Auction Pitch pages.
pub struct AuctionPitchView;

/// One player's running score on one line of the sheet.
pub struct ScoreCell {
    /// Whose score it is.
    pub player: String,
    /// The score as written (`"−3"`), or empty when the line changes no score.
    pub text: String,
    /// Negative while counting up: "in the hole", circled in red on a paper sheet.
    pub in_hole: bool,
    /// This player was the pitcher of the hand.
    pub pitcher: bool,
}

/// The contract of a played hand, or a dead hand, as the sheet writes it.
pub struct HandCell {
    /// Who dealt.
    pub dealer: String,
    /// The pitcher; `None` when all passed.
    pub pitcher: Option<String>,
    /// The bid, `"1"`–`"4"`.
    pub bid: String,
    /// Who took each point, `("H", "Ann")`, …, with `"—"` for nobody.
    pub points: Vec<(&'static str, &'static str, String)>,
    /// A mark for the outcome when it is not simply made: `"set back 3"`, `"Bob revoked"`.
    pub mark: String,
}

/// One player's money at the end of a game.
pub struct PaymentCell {
    /// Whose money.
    pub player: String,
    /// `"+1.15"`, `"−0.50"` or empty.
    pub amount: String,
    /// `"plus"`, `"minus"` or empty, for colour.
    pub class: &'static str,
}

/// The row closing a game: winner, how it was decided, and each player's payment.
pub struct GameEnd {
    /// Whether a later correction or undo changed how this game ended (shown struck
    /// through); the game's row as it now stands follows that correction's row.
    pub struck: bool,
    /// When and by which event it was changed, in words; empty if it stands.
    pub changed: String,
    /// The scores the next game starts from, when they are not all zero (count-down);
    /// empty otherwise.
    pub fresh: Vec<ScoreCell>,
    /// The game's number in the session (1, 2, …).
    pub number: usize,
    /// The winner; empty if the ledger names none.
    pub winner: String,
    /// The winner's final score.
    pub score: String,
    /// How it was decided, in words ("pitcher went out").
    pub how: String,
    /// The settlement in words, from the ledger's explanation.
    pub words: String,
    /// The money per player.
    pub payments: Vec<PaymentCell>,
}

/// One line of the sheet.
pub struct Line {
    /// The hand's number (1, 2, …), or empty for other lines.
    pub number: String,
    /// The contract, for hands.
    pub hand: Option<HandCell>,
    /// For other lines: what they are ("start", "payment", "closed", "corrects event 2").
    pub note: String,
    /// The running scores, one per player: after the hand, or after a correction or undo
    /// (the session as it now stands); empty cells for other lines.
    pub scores: Vec<ScoreCell>,
    /// The money of a line other than a hand (a correction's net change, a payment), one
    /// cell per player; empty when it moves none.
    pub money: Vec<PaymentCell>,
    /// What happened, in words.
    pub explanation: String,
    /// Whether this line is a correction or an undo.
    pub amends: bool,
    /// Whether a later correction or undo changed this line's event (shown struck through).
    pub struck: bool,
    /// When and by which event it was changed, in words; empty if it stands.
    pub changed: String,
    /// The page that corrects the hand this line shows, while it stands in an open session.
    pub correct_link: Option<String>,
    /// The closing rows under this line: the game a hand ended, or the games a correction
    /// or undo ended anew.
    pub game_ends: Vec<GameEnd>,
}

#[derive(Template)]
#[template(path = "games/auction_pitch/sheet.html")]
struct Sheet {
    players: Vec<String>,
    lines: Vec<Line>,
}

#[derive(Template)]
#[template(path = "games/auction_pitch/hand_form.html")]
struct HandForm {
    session_id: i64,
    seated: Vec<String>,
    expected_events: usize,
    bids: Vec<i64>,
    points: Vec<PointField>,
    values: HashMap<String, String>,
    error_field: Option<String>,
}

/// One "who took it" select of the hand form.
struct PointField {
    /// The form field, `points.high`.
    name: String,
    /// `High`.
    word: &'static str,
    /// Whether "nobody" is offered (Jack and Game).
    nobody: bool,
    /// A hint under the select.
    hint: &'static str,
}

impl HandForm {
    fn value(&self, field: &str) -> String {
        self.values.get(field).cloned().unwrap_or_default()
    }

    fn selected(&self, field: &str, option: &str) -> bool {
        self.values.get(field).is_some_and(|v| v == option)
    }

    fn invalid(&self, field: &str) -> bool {
        self.error_field.as_deref() == Some(field)
    }

    fn has(&self, field: &str) -> bool {
        self.values.get(field).is_some_and(|v| !v.trim().is_empty())
    }
}

fn agreements_of(loaded: &Loaded) -> Result<Agreements, AppError> {
    Agreements::read(&loaded.doc.agreements)
        .map_err(|e| AppError::Internal(format!("stored agreements: {e}")))
}

fn text(event: &Value, field: &str) -> String {
    match event.get(field) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

fn class_of(cents: i64) -> &'static str {
    match cents.signum() {
        1 => "plus",
        -1 => "minus",
        _ => "",
    }
}

/// `decided_by` of the ledger's `games` in the table's words.
fn decided_in_words(decided_by: &str, winner: &str) -> String {
    let counted = "counted High, Low, Jack, Game";
    match decided_by {
        "pitcher_out" => "pitcher went out".into(),
        "only_one_out" => "only one out".into(),
        "smudge" => "smudge: all four points in one hand".into(),
        "countdown" => "count-down: first to zero".into(),
        "count_order:revoke" => format!("{counted}: the revoke's bonus took {winner} out first"),
        other => match other.strip_prefix("count_order:") {
            Some(point) => {
                let word = Point::ORDER
                    .into_iter()
                    .find(|p| p.id() == point)
                    .map_or(point, |p| p.word());
                format!("{counted}: {word} took {winner} out first")
            }
            None => other.replace('_', " "),
        },
    }
}

/// The running scores of `scores` (a ledger `scores_after` or a start), one cell per player.
fn score_cells(
    players: &[String],
    scores: &dyn Fn(&str) -> Option<i64>,
    counts_down: bool,
    pitcher: Option<&str>,
) -> Vec<ScoreCell> {
    players
        .iter()
        .map(|p| {
            let score = scores(p);
            ScoreCell {
                player: p.clone(),
                text: score.map(num).unwrap_or_default(),
                in_hole: !counts_down && score.is_some_and(|s| s < 0),
                pitcher: pitcher == Some(p.as_str()),
            }
        })
        .collect()
}

fn blank_cells(players: &[String]) -> Vec<ScoreCell> {
    score_cells(players, &|_| None, false, None)
}

/// The contract of one `hand` event, with the engine's verdict on the bid.
fn hand_cell(agreements: &Agreements, players: &[String], event: &Value) -> HandCell {
    let dealer = text(event, "dealer");
    let deal = event
        .as_object()
        .and_then(|e| hand::read(e, &Table::new(players)).ok());
    let Some(Deal::Played(c)) = deal else {
        return HandCell {
            dealer,
            pitcher: None,
            bid: String::new(),
            points: Vec::new(),
            mark: String::new(),
        };
    };
    let mark = match score::parts(agreements, players, &c).outcome {
        Outcome::Made => String::new(),
        Outcome::SetBack => format!("set back {}", c.bid),
        Outcome::PitcherRevoked => format!("revoked, set back {}", c.bid),
        Outcome::Revoked(who) => format!("{who} revoked"),
    };
    let points = Point::ORDER
        .into_iter()
        .map(|p| {
            (
                &p.word()[..1],
                p.word(),
                c.points.taker(p).unwrap_or("—").to_string(),
            )
        })
        .collect();
    HandCell {
        dealer,
        pitcher: Some(c.pitcher),
        bid: c.bid.to_string(),
        points,
        mark,
    }
}

/// The scores a game starts from: the carried-in scores for the first game, else every
/// player at the fresh score (0, or the count-down start). `None` when they are all zero.
fn start_scores(
    agreements: &Agreements,
    players: &[String],
    opening: Option<&Map<String, Value>>,
) -> Option<Vec<ScoreCell>> {
    let fresh = agreements.fresh_score();
    let start = |p: &str| {
        Some(
            opening
                .and_then(|o| o.get(p))
                .and_then(Value::as_i64)
                .unwrap_or(fresh),
        )
    };
    if players.iter().all(|p| start(p) == Some(0)) {
        return None;
    }
    Some(score_cells(players, &start, agreements.counts_down(), None))
}

/// Each player's money in `postings`, one cell per player (empty cells for none).
fn payment_cells(players: &[String], postings: &[Posting]) -> Vec<PaymentCell> {
    players
        .iter()
        .map(|p| {
            let cents: i64 = postings
                .iter()
                .filter(|x| &x.account == p)
                .map(|x| x.amount.cents())
                .sum();
            PaymentCell {
                player: p.clone(),
                amount: signed(cents),
                class: class_of(cents),
            }
        })
        .collect()
}

/// How the engine's words for a game's settlement begin ([`game_end`]'s "Game over: A wins
/// at 11 …").
const GAME_OVER: &str = "Game over: ";

/// An entry's explanation split into the hand's words and the settlement's ("Game over:
/// …"), as the engine writes them.
fn split_game_over(explanation: &str) -> (String, String) {
    match explanation.split_once(&format!(". {GAME_OVER}")) {
        Some((hand, words)) => (hand.to_string(), format!("{GAME_OVER}{words}")),
        None => (explanation.to_string(), String::new()),
    }
}

/// The closing row of a finished game, from the game as the ledger then listed it and the
/// entry of the hand that finished it (its postings are the payments).
fn game_end(players: &[String], closing: &Closing, fresh: Vec<ScoreCell>) -> GameEnd {
    let game = &closing.game;
    let winner = game.winner.clone().unwrap_or_default();
    let score = game
        .final_scores
        .get(&winner)
        .and_then(Value::as_i64)
        .map(num)
        .unwrap_or_default();
    GameEnd {
        struck: false,
        changed: String::new(),
        fresh,
        number: closing.number,
        how: decided_in_words(&game.decided_by, &winner),
        winner,
        score,
        words: split_game_over(&closing.entry.explanation).1,
        payments: payment_cells(players, &closing.entry.postings),
    }
}

impl GameView for AuctionPitchView {
    fn agreement_fields(&self) -> Vec<AgreementField> {
        vec![
            AgreementField {
                name: "stake",
                label: "Stake per point of difference",
                kind: FieldKind::Money,
                default: "0.05",
                help: "At the end of each game every other player pays the winner the difference in points times this; 0 plays for points only (rules §1.4 settlement).",
            },
            AgreementField {
                name: "target",
                label: "Game (points to win)",
                kind: FieldKind::Number,
                default: "11",
                help: "Scarne plays to 11; 7, 9, 10 or 21 by agreement (rules §1.4). Not used counting down.",
            },
            AgreementField {
                name: "variant",
                label: "Variant",
                kind: FieldKind::Choice(vec![
                    ("standard", "standard: count up to the game (Scarne)"),
                    ("smudge", "smudge: all four points in one hand win"),
                    ("countdown", "count-down: from the start to zero"),
                ]),
                default: "standard",
                help: "Smudge: taking High, Low, Jack and Game in one hand wins the game. Count-down: points won come off, a set-back goes on, first to zero wins (rules §1.4).",
            },
            AgreementField {
                name: "countdown_start",
                label: "Count-down start",
                kind: FieldKind::Number,
                default: "7",
                help: "Everyone starts here in the count-down variant (rules §1.4: 7).",
            },
            AgreementField {
                name: "smudge_rule",
                label: "Smudge rule",
                kind: FieldKind::Choice(vec![
                    ("wins_immediately", "a smudge wins at once"),
                    ("not_in_hole", "not from the hole: the smudger goes to +4"),
                ]),
                default: "wins_immediately",
                help: "Regional rule: a smudger in the hole does not win; his minus is dropped and he stands at +4 (rules §1.4 Smudge).",
            },
            AgreementField {
                name: "negative_difference",
                label: "When the winner is behind a player",
                kind: FieldKind::Choice(vec![
                    ("clamp_zero", "that player pays nothing"),
                    ("pay", "the winner pays him the difference"),
                ]),
                default: "clamp_zero",
                help: "The pitcher going out wins even if another player passed him on the same hand; the difference is then negative (rules §1.4 settlement).",
            },
            AgreementField {
                name: "dealer_may_steal",
                label: "Dealer may steal the bid",
                kind: FieldKind::Bool,
                default: "no",
                help: "Whether the dealer may take the bid at the current high bid; Scarne says no (rules §1.4 bidding). Written on the sheet only.",
            },
        ]
    }

    fn agreements_summary(&self, loaded: &Loaded) -> Vec<(String, String)> {
        let Ok(a) = agreements_of(loaded) else {
            return Vec::new();
        };
        let stake = if a.stake.is_zero() {
            "none: points only".to_string()
        } else {
            format!(
                "{} {} a point of difference, paid to the winner of each game",
                a.stake, loaded.doc.currency
            )
        };
        let game = match a.variant {
            Variant::Standard => format!("standard: first to {} points", a.target),
            Variant::Smudge => format!(
                "smudge: first to {} points, or all four points in one hand",
                a.target
            ),
            Variant::Countdown => format!(
                "count-down: from {} to zero; points won come off, a set-back goes on",
                a.countdown_start
            ),
        };
        let mut summary = vec![("Stake".into(), stake), ("Game".into(), game)];
        if a.variant == Variant::Smudge {
            summary.push((
                "Smudge".into(),
                match a.smudge_rule {
                    SmudgeRule::WinsImmediately => "wins the game at once".into(),
                    SmudgeRule::NotInHole => {
                        "wins unless the smudger is in the hole; then he goes to +4".into()
                    }
                },
            ));
        }
        summary.push((
            "Winner behind a player".into(),
            match a.negative_difference {
                NegativeDifference::ClampZero => "that player pays nothing".into(),
                NegativeDifference::Pay => "the winner pays him the difference".into(),
            },
        ));
        summary.push((
            "Dealer may steal".into(),
            if a.dealer_may_steal { "yes" } else { "no" }.into(),
        ));
        summary
    }

    fn sheet(&self, loaded: &Loaded) -> Result<String, AppError> {
        let agreements = agreements_of(loaded)?;
        // The engine ends a game on a hand whose scores are the game's final scores and
        // whose words settle it.
        let history = History::read(loaded, &|entry, game| {
            entry.kind == "hand"
                && entry.scores_after.as_ref() == Some(&game.final_scores)
                && entry.explanation.contains(GAME_OVER)
        })?;
        let counts_down = agreements.counts_down();
        let players = loaded.doc.players.clone();
        let opening = loaded
            .doc
            .opening_scores
            .as_ref()
            .and_then(Value::as_object);
        let blank_line = |note: String, scores: Vec<ScoreCell>| Line {
            number: String::new(),
            hand: None,
            note,
            scores,
            money: Vec::new(),
            explanation: String::new(),
            amends: false,
            struck: false,
            changed: String::new(),
            correct_link: None,
            game_ends: Vec::new(),
        };
        let mut lines: Vec<Line> = start_scores(&agreements, &players, opening)
            .map(|scores| blank_line("start".into(), scores))
            .into_iter()
            .collect();
        // Each closing row shown, by (line, position among the line's closing rows).
        let mut shown: Shown<(usize, usize)> = Shown::new();
        let mut hand_number = 0;
        for entry in &loaded.ledger.events {
            let Some((index, event)) = entry
                .seq
                .checked_sub(1)
                .and_then(|i| Some((i, loaded.doc.events.get(i)?)))
            else {
                continue;
            };
            let mut line = blank_line(String::new(), blank_cells(&players));
            line.struck = history.struck(index);
            line.changed = history.changed(index);
            line.correct_link = history.correct_link(index);
            line.explanation = entry.explanation.clone();
            if entry.kind == "hand" {
                hand_number += 1;
                let hand = hand_cell(&agreements, &players, event);
                // A dead hand changes no score and leaves the cells empty.
                if let (Some(pitcher), Some(after)) = (&hand.pitcher, entry.scores_after.as_ref()) {
                    line.scores = score_cells(
                        &players,
                        &|p| after.get(p).and_then(Value::as_i64),
                        counts_down,
                        Some(pitcher),
                    );
                }
                if let Some(closing) = history.finished_by(index) {
                    line.explanation = split_game_over(&entry.explanation).0;
                    let fresh = start_scores(&agreements, &players, None).unwrap_or_default();
                    line.game_ends.push(game_end(&players, closing, fresh));
                    shown.show((lines.len(), 0), index, closing.clone());
                }
                line.number = hand_number.to_string();
                line.hand = Some(hand);
                lines.push(line);
                continue;
            }
            line.money = payment_cells(&players, &entry.postings);
            if line.money.iter().all(|m| m.amount.is_empty()) {
                line.money.clear();
            }
            let Some(target) = history.target(index) else {
                line.note = if entry.kind == "close" {
                    "closed".into()
                } else {
                    entry.kind.replace('_', " ")
                };
                lines.push(line);
                continue;
            };
            // A correction or undo: the scores as the session now stands, and every game
            // whose ending it changed, struck where it was shown and shown anew here.
            line.amends = true;
            line.note = history.note(index).unwrap_or_default();
            let now = history.games_after(index);
            let last_hand = history
                .standing_after(index)
                .into_iter()
                .rev()
                .find(|(_, e)| e.kind == "hand")
                .map(|(i, _)| i);
            // The game the last hand standing finished, if it did: the next starts fresh.
            let just_finished = now
                .last()
                .filter(|c| Some(c.event) == last_hand)
                .map(|c| c.number);
            let (gone, again) = shown.amend(target, &now);
            for ((at, position), still_over) in gone {
                if let Some(end) = lines
                    .get_mut(at)
                    .and_then(|l| l.game_ends.get_mut(position))
                {
                    end.struck = true;
                    end.changed = history.closing_changed(index, still_over);
                }
            }
            let shown_here = just_finished.is_some_and(|n| again.iter().any(|c| c.number == n));
            // `scores_after` is the last hand's; when that hand finished a game not shown
            // again here, they are that game's final scores, not the game in progress.
            line.scores = match entry.scores_after.as_ref() {
                _ if just_finished.is_some() && !shown_here => {
                    let fresh = agreements.fresh_score();
                    score_cells(&players, &|_| Some(fresh), counts_down, None)
                }
                Some(after) => score_cells(
                    &players,
                    &|p| after.get(p).and_then(Value::as_i64),
                    counts_down,
                    None,
                ),
                None => blank_cells(&players),
            };
            for closing in again {
                let fresh = if Some(closing.number) == just_finished {
                    start_scores(&agreements, &players, None).unwrap_or_default()
                } else {
                    Vec::new()
                };
                shown.show((lines.len(), line.game_ends.len()), index, closing.clone());
                line.game_ends.push(game_end(&players, &closing, fresh));
            }
            lines.push(line);
        }
        for (at, position) in shown.stale(&loaded.ledger.games) {
            if let Some(end) = lines
                .get_mut(at)
                .and_then(|l| l.game_ends.get_mut(position))
            {
                end.struck = true;
                end.changed = "no longer stands".into();
            }
        }
        Sheet { players, lines }.render_page()
    }

    fn hand_form(
        &self,
        loaded: &Loaded,
        values: &HashMap<String, String>,
        error_field: Option<&str>,
    ) -> Result<String, AppError> {
        let values = with_next_dealer(loaded, values);
        let points = Point::ORDER
            .into_iter()
            .map(|p| PointField {
                name: format!("points.{}", p.id()),
                word: p.word(),
                nobody: matches!(p, Point::Jack | Point::Game),
                hint: match p {
                    Point::High => "Dealt the highest trump in play.",
                    Point::Low => "Dealt the lowest trump in play (the same player may hold High).",
                    Point::Jack => "Won the jack of trumps in a trick; nobody if it was not dealt.",
                    Point::Game => {
                        "Most game count in tricks (A 4, K 3, Q 2, J 1, 10 10); nobody on a tie."
                    }
                },
            })
            .collect();
        HandForm {
            session_id: loaded.id,
            seated: loaded.seated.clone(),
            expected_events: loaded.doc.events.len(),
            bids: (1..=MAX_BID).collect(),
            points,
            values,
            error_field: error_field.map(String::from),
        }
        .render_page()
    }

    fn hand_event(&self, form: &HashMap<String, String>) -> Result<Value, AppError> {
        let ask = |field: &str, message: &str| AppError::BadRequest {
            field: field.into(),
            message: message.into(),
        };
        let mut event = Map::new();
        event.insert("type".into(), "hand".into());
        let dealer = given(form, "dealer").ok_or_else(|| ask("dealer", "who dealt?"))?;
        event.insert("dealer".into(), dealer.into());
        if given(form, "all_passed").is_some() {
            event.insert("all_passed".into(), true.into());
            return Ok(Value::Object(event));
        }
        let pitcher = given(form, "pitcher").ok_or_else(|| {
            ask(
                "pitcher",
                "who is the pitcher (won the bid)? If everyone passed, press All passed",
            )
        })?;
        event.insert("pitcher".into(), pitcher.into());
        let bid =
            number(form, "bid")?.ok_or_else(|| ask("bid", "what did the pitcher bid, 1 to 4?"))?;
        event.insert("bid".into(), bid.into());
        let mut points = Map::new();
        for point in Point::ORDER {
            let field = format!("points.{}", point.id());
            let taker = match given(form, &field) {
                Some("nobody") => Value::Null,
                Some(name) => Value::from(name),
                None if matches!(point, Point::Jack | Point::Game) => {
                    return Err(ask(
                        &field,
                        &format!(
                            "who took {}? Choose nobody if {}",
                            point.word(),
                            if point == Point::Jack {
                                "the jack of trumps was not dealt"
                            } else {
                                "game count was tied"
                            }
                        ),
                    ));
                }
                None => return Err(ask(&field, &format!("who took {}?", point.word()))),
            };
            points.insert(point.id().into(), taker);
        }
        event.insert("points".into(), Value::Object(points));
        if let Some(who) = given(form, "revoke_by") {
            event.insert("revoke_by".into(), who.into());
        }
        Ok(Value::Object(event))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use serde_json::json;

    fn form(fields: &[(&str, &str)]) -> HashMap<String, String> {
        fields
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_form_becomes_a_hand_event_with_nobody_as_null() {
        let event = VIEW
            .hand_event(&form(&[
                ("dealer", "Dan"),
                ("pitcher", "Ann"),
                ("bid", "2"),
                ("points.high", "Ann"),
                ("points.low", "Bob"),
                ("points.jack", "nobody"),
                ("points.game", "Ann"),
                ("revoke_by", ""),
            ]))
            .unwrap();
        assert_eq!(
            event,
            json!({"type": "hand", "dealer": "Dan", "pitcher": "Ann", "bid": 2,
                   "points": {"high": "Ann", "low": "Bob", "jack": null, "game": "Ann"}})
        );
    }

    #[test]
    fn all_passed_ignores_the_contract() {
        let event = VIEW
            .hand_event(&form(&[
                ("dealer", "Dan"),
                ("all_passed", "true"),
                ("pitcher", "Ann"),
            ]))
            .unwrap();
        assert_eq!(
            event,
            json!({"type": "hand", "dealer": "Dan", "all_passed": true})
        );
    }

    #[test]
    fn an_unanswered_point_is_asked_for_by_name() {
        let e = VIEW
            .hand_event(&form(&[
                ("dealer", "Dan"),
                ("pitcher", "Ann"),
                ("bid", "2"),
                ("points.high", "Ann"),
                ("points.low", "Bob"),
                ("points.game", "Ann"),
            ]))
            .unwrap_err();
        assert_eq!(e.field().as_deref(), Some("points.jack"));
        assert!(e.to_string().contains("Choose nobody"), "{e}");
    }

    #[test]
    fn decided_by_reads_in_words() {
        assert_eq!(decided_in_words("pitcher_out", "Ann"), "pitcher went out");
        assert_eq!(
            decided_in_words("count_order:low", "Bob"),
            "counted High, Low, Jack, Game: Low took Bob out first"
        );
    }
}
