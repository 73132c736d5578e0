//! Check Pinochle (rules §1.7; S003 with BIC-CHK's numbers): partnership auction pinochle
//! to 1,000 where melds, contracts, slams and the game earn checks; the side with more
//! checks at a game's end is paid the difference × stake per check.
//!
//! Each game is settled when a side reaches the target; the next starts at 0
//! (`opening_scores` seed the first only).

pub mod agreements;
pub mod checks;
pub mod form;
pub mod hand;
pub mod meld;
pub mod settle;

use serde_json::{Value, json};

use self::agreements::{Agreements, Settlement, Unfinished};
use self::hand::{Hand, Scored, SideScore, WrittenHand};
use crate::ledger::Postings;
use crate::rules::contract_head;
use crate::rules::partnership::{self, PerSide, Seating, Side};
use crate::rules::sheet::minus;
use crate::rules::typed::{self, Game};
use crate::rules::{
    Award, Cell, Contract, Ctx, Detail, FinishedGame, GameEnd, GameInfo, Layout, Mark, Outcome,
    RuleError, SheetLine, Table, Tally, Tone,
};

/// The registration of `check_pinochle`: exactly four players (rules §1.7).
pub static GAME: GameInfo = GameInfo::typed::<CheckPinochle, form::Form>(
    ("check_pinochle", "Check Pinochle", "rules §1.7"),
    (partnership::PLAYERS, partnership::PLAYERS),
    form::AGREEMENTS,
)
.with_meld(&meld::MELD)
.with_to_make(crate::rules::to_make::side_meld_and_tricks);

typed::events! {
    /// What happens in Check Pinochle besides a payment and the close: a hand.
    pub enum Event {
        /// A deal, bid and played or thrown in (rules §1.7).
        "hand" => Hand(hand::WrittenHand),
    }
}

/// The engine of one Check Pinochle session: the game in progress and how many finished.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckPinochle {
    agreements: Agreements,
    seating: Seating,
    scores: PerSide<i64>,
    checks: PerSide<i64>,
    hands_this_game: usize,
    games: usize,
}

impl CheckPinochle {
    /// The agreements this session plays under.
    pub fn agreements(&self) -> &Agreements {
        &self.agreements
    }

    /// The 1-based number of the game in progress.
    fn game_number(&self) -> usize {
        self.games + 1
    }

    /// Scores a deal and may end and settle the game; a refusal changes nothing.
    fn hand(&mut self, ctx: &mut Ctx<'_>, event: WrittenHand) -> Result<Outcome, RuleError> {
        let hand = hand::check(event, &self.seating)?;
        let scored = hand::score(&hand, &self.agreements);
        let mut scores = self.scores;
        let mut checks = self.checks;
        for side in Side::BOTH {
            scores[side] += scored.sides[side].points;
            checks[side] += scored.sides[side].checks();
        }
        let mut why = format!(
            "{} → NS {}, EW {}; checks NS {}, EW {}",
            describe(&hand, &scored),
            minus(scores.ns),
            minus(scores.ew),
            checks.ns,
            checks.ew
        );
        let game = self.game_number();
        let Some(end) = settle::game_end(&scores, self.agreements.target, hand.bidding) else {
            ctx.table.dealt(&hand.dealer);
            self.scores = scores;
            self.checks = checks;
            self.hands_this_game += 1;
            return Ok(Outcome {
                scores_after: Some(sheet(game, &scores, &checks)),
                ..Outcome::new(Vec::new(), why, hand_line(&hand, &scored, &scores, &checks))
            });
        };
        let (w, l) = (end.winner, end.winner.other());
        let (award, award_words) = self.agreements.game_award.checks(scores[w], scores[l]);
        let line = hand_line(&hand, &scored, &scores, &checks);
        checks[w] += award;
        let order = ctx.table.from_left_of(&hand.dealer);
        let (postings, paid, steps) =
            settle::pay_checks(&self.agreements, &self.seating, &order, &checks)?;
        let (won, how) = self.end_words(end.decided_by, w, &scores, game);
        why.push_str(&won);
        why.push_str(&format!(": checks +{award} ({award_words}); {paid}"));
        if checks[w] < checks[l] {
            why.push_str(&format!(
                " ({} win on points, {} on checks, which decide the money)",
                w.name(),
                l.name()
            ));
        }
        let mut after = sheet(game, &scores, &checks);
        after["game_over"] = json!({ "winner": w.name(), "decided_by": end.decided_by });
        ctx.table.dealt(&hand.dealer);
        let (finished, end) = closing(w, end.decided_by, &scores, how, (award, &award_words), paid);
        self.games += 1;
        self.scores = PerSide::default();
        self.checks = PerSide::default();
        self.hands_this_game = 0;
        Ok(Outcome {
            rules: vec!["rules §1.7".into()],
            postings: postings.into_vec(),
            scores_after: Some(after),
            explanation: why,
            steps,
            line,
            finished: Some((finished, end)),
        })
    }

    /// How side `w` won: the target, or both passed it and the bidders win (rules §1.7).
    fn end_words(
        &self,
        decided_by: &str,
        w: Side,
        scores: &PerSide<i64>,
        game: usize,
    ) -> (String, String) {
        let target = self.agreements.target;
        match decided_by {
            "target" => (
                format!(
                    ". {} reach {} (target {target}) and win game {game}",
                    w.name(),
                    scores[w]
                ),
                format!("reached {} (target {target})", minus(scores[w])),
            ),
            _ => (
                format!(
                    ". Both sides pass {target} (NS {}, EW {}): the bidding side {} wins game {game}",
                    minus(scores.ns),
                    minus(scores.ew),
                    w.name()
                ),
                format!("both sides passed {target} on one hand: the bidders win"),
            ),
        }
    }
}

/// A game `w` won: its record and closing row with the award (rules §1.7) and `paid`.
fn closing(
    w: Side,
    decided_by: &str,
    scores: &PerSide<i64>,
    how: String,
    (award, award_words): (i64, &str),
    paid: String,
) -> (FinishedGame, GameEnd) {
    let award = Award {
        to: w.name().to_string(),
        tally: Tally::Checks,
        amount: award,
        what: format!("game award ({award_words})"),
        short: String::new(),
    };
    partnership::game_won(w, decided_by, scores, how, Some(award), paid)
}

/// What a deal added to each side: points and checks.
fn scored_added(scored: &Scored) -> PerSide<(i64, i64)> {
    let mut added = PerSide::default();
    for side in Side::BOTH {
        added[side] = (scored.sides[side].points, scored.sides[side].checks());
    }
    added
}

/// Both sides' points and checks cells (the game award is on the closing row).
fn side_cells(
    added: &PerSide<(i64, i64)>,
    scores: &PerSide<i64>,
    checks: &PerSide<i64>,
) -> Vec<Cell> {
    Side::BOTH
        .iter()
        .flat_map(|&side| {
            [
                Cell {
                    in_hole: scores[side] < 0,
                    ..Cell::added(side.name(), Tally::Points, added[side].0, scores[side])
                },
                Cell::added(side.name(), Tally::Checks, added[side].1, checks[side]),
            ]
        })
        .collect()
}

/// The sheet's line for a deal: contract, made or set, each side's meld, tricks, checks.
fn hand_line(
    hand: &Hand,
    scored: &Scored,
    scores: &PerSide<i64>,
    checks: &PerSide<i64>,
) -> SheetLine {
    let b = hand.bidding;
    let mut marks = Vec::new();
    if hand.dealer_forced {
        marks.push(Mark::new("dealer forced to bid", Tone::Plain));
    }
    for side in Side::BOTH {
        if scores[side] < 0 {
            marks.push(Mark::new(format!("{} in the hole", side.name()), Tone::Bad));
        }
    }
    let mut awards = Vec::new();
    let mut details = Vec::new();
    for side in Side::BOTH {
        details.extend(side_details(hand, scored, side));
        awards.extend(scored.sides[side].awards.iter().map(|a| Award {
            to: side.name().into(),
            tally: Tally::Checks,
            amount: a.checks,
            what: a.words.clone(),
            short: String::new(),
        }));
    }
    SheetLine {
        dealer: Some(hand.dealer.clone()),
        contract: Some(Contract {
            who: hand.bidder.clone(),
            side: Some(b.name().into()),
            bid: hand.bid,
            trump: Some(hand.trump),
            result: if scored.made { "made" } else { "set" }.into(),
            tone: if scored.made { Tone::Good } else { Tone::Bad },
        }),
        title: None,
        marks,
        awards,
        details,
        cells: side_cells(&scored_added(scored), scores, checks),
    }
}

/// One side's details for a deal (rules §1.7): meld and meld checks, tricks, losses.
fn side_details(hand: &Hand, scored: &Scored, side: Side) -> Vec<Detail> {
    let input = &hand.sides[side];
    let score: &SideScore = &scored.sides[side];
    let set = side == hand.bidding && !scored.made;
    let detail = |text: String, tone: Tone| Detail {
        account: side.name().into(),
        text,
        tone,
    };
    let check_melds: Vec<String> = checks::MeldCheck::ALL
        .iter()
        .filter_map(
            |m| match input.meld_checks.iter().filter(|x| *x == m).count() {
                0 => None,
                1 => Some(m.words().to_string()),
                n => Some(format!("{n} × {}", m.words())),
            },
        )
        .collect();
    let mut meld = format!("meld {}", input.hand.meld);
    if !check_melds.is_empty() {
        meld = format!("{meld}: {}", check_melds.join(", "));
    }
    let mut tricks = format!("tricks {}", input.hand.tricks);
    if input.all_tricks {
        tricks.push_str(", all 12");
    }
    let mut details = vec![detail(meld, Tone::Plain), detail(tricks, Tone::Plain)];
    if set {
        details.push(detail(
            format!("−{}, no checks: meld and tricks lost", hand.bid),
            Tone::Bad,
        ));
    } else if input.hand.meld > 0 && score.points < input.hand.meld + input.hand.tricks {
        details.push(detail(
            format!("meld {} lost without a trick", input.hand.meld),
            Tone::Bad,
        ));
    }
    if let Some(lost) = &score.lost {
        details.push(detail(lost.clone(), Tone::Bad));
    }
    details
}

/// `scores_after`: `{"game": 1, "scores": {…}, "checks": {…}}`, plus `game_over`.
fn sheet(game: usize, scores: &PerSide<i64>, checks: &PerSide<i64>) -> Value {
    json!({ "game": game, "scores": scores.to_json(), "checks": checks.to_json() })
}

/// The deal in words with every award ("N bid 300 in hearts for NS and made it: NS +320 …").
pub fn describe(hand: &Hand, scored: &Scored) -> String {
    let b = hand.bidding;
    let forced = if hand.dealer_forced {
        ", forced as dealer,"
    } else {
        ""
    };
    let bidder = format!("{}{forced}", hand.bidder);
    let contract = contract_head::words(&bidder, hand.bid, hand.trump, b);
    let head = if scored.made {
        format!("{contract} and made it")
    } else {
        format!(
            "{contract} and fell short with {} ({})",
            scored.bidders_total, scored.bidders_words
        )
    };
    let side_words = |side: Side| -> String {
        let s: &SideScore = &scored.sides[side];
        if side == b && !scored.made {
            let lost = s
                .lost
                .as_ref()
                .map(|l| format!("; {l}"))
                .unwrap_or_default();
            return format!(
                "{} −{}, no checks (meld and tricks lost{lost})",
                side.name(),
                hand.bid
            );
        }
        let checks = if s.awards.is_empty() {
            "no checks".to_string()
        } else {
            let items: Vec<String> = s
                .awards
                .iter()
                .map(|a| format!("+{} ({})", a.checks, a.words))
                .collect();
            format!("checks {}", items.join(" "))
        };
        let lost = s
            .lost
            .as_ref()
            .map(|l| format!(" ({l})"))
            .unwrap_or_default();
        let sign = if s.points < 0 { "" } else { "+" };
        format!(
            "{} {sign}{} ({}), {checks}{lost}",
            side.name(),
            minus(s.points),
            s.points_words
        )
    };
    format!("{head}: {}; {}", side_words(b), side_words(b.other()))
}

impl Game for CheckPinochle {
    type Agreements = Agreements;
    type Event = Event;
    const NAME: &'static str = "Check Pinochle";
    const ENTER: &'static str =
        "a hand, a payment or the close (partners stay seated for the whole game)";
    const RULE: Option<&'static str> = Some("rules §1.7");

    /// Four partners and the first game's `opening_scores`, each below the target.
    fn new(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<CheckPinochle, RuleError> {
        let (seating, opening) = partnership::open(players, opening_scores, |field, score| {
            if score >= agreements.target {
                return Err(RuleError::new(
                    field,
                    format!(
                        "{score} already reaches the target {}, so that game is over",
                        agreements.target
                    ),
                )
                .rule("rules §1.7"));
            }
            if score.abs() > 10 * agreements.target.max(1000) {
                return Err(RuleError::new(
                    field,
                    format!("{score} is not a score from a real sheet"),
                ));
            }
            Ok(())
        })?;
        Ok(CheckPinochle {
            agreements,
            seating,
            scores: opening,
            checks: PerSide::default(),
            hands_this_game: 0,
            games: 0,
        })
    }

    fn apply(&mut self, ctx: &mut Ctx<'_>, event: Event) -> Result<Outcome, RuleError> {
        match event {
            Event::Hand(hand) => self.hand(ctx, hand),
        }
    }

    /// A game open at close pays its checks without award, or nothing if `"void"` ([R]).
    fn close(&mut self, ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        let line = SheetLine::titled("closed");
        if self.hands_this_game == 0 {
            return Ok(Outcome::new(Vec::new(), "The sitting is closed", line));
        }
        let head = format!(
            "The sitting is closed with game {} unfinished (NS {}, EW {})",
            self.game_number(),
            minus(self.scores.ns),
            minus(self.scores.ew)
        );
        match self.agreements.unfinished_game {
            Unfinished::Void => Ok(Outcome::new(
                Vec::new(),
                format!(
                    "{head}: nothing is paid for it (as agreed, an unfinished game is void; checks NS {}, EW {})",
                    self.checks.ns, self.checks.ew
                ),
                line,
            )),
            Unfinished::Settle => {
                let order = ctx.table.leftover_order();
                let (postings, paid, steps): (Postings, String, _) =
                    settle::pay_checks(&self.agreements, &self.seating, &order, &self.checks)?;
                let model = match self.agreements.settlement {
                    Settlement::PerPlayer => "per player",
                    Settlement::PerPartnership => "per partnership",
                };
                Ok(Outcome::new(
                    postings.into_vec(),
                    format!(
                        "{head}: its checks are paid as they stand, without a game award ({model}); {paid}"
                    ),
                    line,
                )
                .with_steps(steps))
            }
        }
    }

    fn scores(&self) -> Option<Value> {
        Some(self.scores.to_json())
    }

    fn checks(&self) -> Option<Value> {
        Some(self.checks.to_json())
    }

    /// A points and a checks column per side, NS first (rules §1.7).
    fn layout(&self, _table: &Table) -> Layout {
        self.seating.layout(&[Tally::Points, Tally::Checks])
    }

    fn standing(&self) -> Vec<Cell> {
        Side::BOTH
            .iter()
            .flat_map(|&side| {
                [
                    Cell {
                        in_hole: self.scores[side] < 0,
                        ..Cell::running(side.name(), Tally::Points, self.scores[side])
                    },
                    Cell::running(side.name(), Tally::Checks, self.checks[side]),
                ]
            })
            .collect()
    }

    fn start_line(&self) -> Option<SheetLine> {
        partnership::carried_in_line(self.scores != PerSide::default(), || self.standing())
    }

    /// Per player, losers pay opposite numbers (rules §3 item 24); per partnership, no pairs.
    fn settle_pairs(&self) -> Vec<(String, String)> {
        match self.agreements.settlement {
            Settlement::PerPlayer => self.seating.opposite_pairs(),
            Settlement::PerPartnership => Vec::new(),
        }
    }

    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)> {
        form::summary(&self.agreements, currency)
    }

    fn unfinished(&self) -> Option<String> {
        if self.hands_this_game == 0 {
            return None;
        }
        Some(match self.agreements.unfinished_game {
            Unfinished::Settle => format!(
                "Game {} is unfinished: closing now pays its checks as they stand (NS {}, EW {}), without a game award.",
                self.game_number(),
                self.checks.ns,
                self.checks.ew
            ),
            Unfinished::Void => format!(
                "Game {} is unfinished: closing now pays nothing for it.",
                self.game_number()
            ),
        })
    }

    fn hand_form(&self, _table: &Table) -> crate::rules::game::HandFormSpec {
        form::offer(&self.seating)
    }
}

#[cfg(test)]
mod tests;
