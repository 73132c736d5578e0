//! Where the game in progress stands, in words for the first screen: each player's or
//! side's score (points, checks), who is in the hole, and who leads. The sheet's foot says
//! the same in its columns, below the latest hands; a watcher's phone needs it at the top.

use super::views::{Group, ScoreNow};
use crate::rules::sheet::points;
use crate::rules::{Cell, Tally};

/// One entry per column group that keeps a score in `standing` (the engine's running
/// cells of the game in progress), most points first (the sheet's order among equals);
/// empty for a game kept in money only. The highest points lead (the lowest when `low`
/// leads, rules §1.12; ties lead together); nobody leads while all are level.
pub(super) fn score_now(groups: &[Group], standing: &[Cell], low: bool) -> Vec<ScoreNow> {
    let scored = |c: &&Cell| c.tally != Tally::Money && c.running.is_some();
    let scores = || {
        standing
            .iter()
            .filter(|c| c.tally == Tally::Points)
            .filter_map(|c| c.running)
    };
    let (best, worst) = match low {
        false => (scores().max(), scores().min()),
        true => (scores().min(), scores().max()),
    };
    let lead = best.filter(|_| worst != best);
    let mut now: Vec<(Option<i64>, ScoreNow)> = groups
        .iter()
        .filter_map(|g| {
            let cells: Vec<&Cell> = standing
                .iter()
                .filter(scored)
                .filter(|c| c.account == g.account)
                .collect();
            let words: Vec<String> = cells
                .iter()
                .filter_map(|c| c.running.map(|n| counted(n, c.tally)))
                .collect();
            let own = cells
                .iter()
                .find(|c| c.tally == Tally::Points)
                .and_then(|c| c.running);
            let line = ScoreNow {
                label: g.label.clone(),
                members: g.members.clone(),
                words: words.join(", "),
                in_hole: cells.iter().any(|c| c.in_hole),
                leads: lead.is_some() && own == lead,
            };
            (!words.is_empty()).then_some((own, line))
        })
        .collect();
    now.sort_by_key(|(own, _)| std::cmp::Reverse(*own));
    if low {
        // Best first: the lowest, those without points last as before.
        now.sort_by_key(|(own, _)| (own.is_none(), *own));
    }
    now.into_iter().map(|(_, s)| s).collect()
}

/// `n` of `tally` in words: "1 point", "−70 points", "22 checks".
fn counted(n: i64, tally: Tally) -> String {
    let word = tally.word();
    match n.abs() {
        1 => format!("{} {}", points(n), word.trim_end_matches('s')),
        _ => format!("{} {word}", points(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(account: &str, members: &str) -> Group {
        Group {
            account: account.into(),
            label: account.into(),
            short: account.into(),
            members: members.into(),
            tallies: vec![Tally::Points, Tally::Checks],
        }
    }

    #[test]
    fn each_side_says_its_points_and_checks_and_the_leader_is_marked() {
        let groups = [group("NS", "Ann & Cy"), group("EW", "Bob & Dee")];
        let mut hole = Cell::running("EW", Tally::Points, -70);
        hole.in_hole = true;
        let standing = [
            Cell::running("NS", Tally::Points, 720),
            Cell::running("NS", Tally::Checks, 22),
            hole,
            Cell::running("EW", Tally::Checks, 0),
            Cell::running("NS", Tally::Money, 500),
        ];
        let now = score_now(&groups, &standing, false);
        assert_eq!(now.len(), 2);
        assert_eq!(
            (now[0].words.as_str(), now[0].leads, now[0].in_hole),
            ("720 points, 22 checks", true, false)
        );
        assert_eq!(now[0].members, "Ann & Cy");
        assert_eq!(
            (now[1].words.as_str(), now[1].leads, now[1].in_hole),
            ("−70 points, 0 checks", false, true)
        );
    }

    #[test]
    fn the_leader_comes_first_and_one_point_is_a_point() {
        let groups = [group("Ann", ""), group("Bob", ""), group("Cy", "")];
        let standing = [
            Cell::running("Ann", Tally::Points, -1),
            Cell::running("Bob", Tally::Points, 7),
            Cell::running("Cy", Tally::Points, 1),
        ];
        let now = score_now(&groups, &standing, false);
        let order: Vec<(&str, &str, bool)> = now
            .iter()
            .map(|s| (s.label.as_str(), s.words.as_str(), s.leads))
            .collect();
        assert_eq!(
            order,
            [
                ("Bob", "7 points", true),
                ("Cy", "1 point", false),
                ("Ann", "−1 point", false)
            ]
        );
    }

    #[test]
    fn nobody_leads_while_all_are_level() {
        let groups = [group("Ann", ""), group("Bob", "")];
        let standing = [
            Cell::running("Ann", Tally::Points, 0),
            Cell::running("Bob", Tally::Points, 0),
        ];
        let now = score_now(&groups, &standing, false);
        assert!(now.iter().all(|s| !s.leads && s.words == "0 points"));
    }

    #[test]
    fn a_game_kept_in_money_only_has_no_score_line() {
        let groups = [group("Ann", "")];
        let standing = [Cell::running("Ann", Tally::Money, 30)];
        assert!(score_now(&groups, &standing, false).is_empty());
    }
}
