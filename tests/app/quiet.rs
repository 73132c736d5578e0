//! A fold told that nobody will read its older rows' words (`Fold::quiet_before`, as the
//! service folds a long session) keeps everything else exactly: every game's long session,
//! with a correction and an undo, folded both ways.

use scorekeeper::format;
use scorekeeper::rules::Step;
use scorekeeper::session::{Fold, Row};
use serde_json::{Value, json};

use crate::common::hands;
use crate::rejoin::{facts, replacement};

/// What a row shows besides the rules' words, which a slimmed row keeps or the fold reads:
/// postings, hand number, scores, contract, cells, kitty steps, game ends and amendments.
fn kept(r: &Row) -> Value {
    let kitty: Vec<String> = r
        .steps
        .iter()
        .filter(|s| matches!(s, Step::Kitty { .. }))
        .map(|s| format!("{s:?}"))
        .collect();
    json!({
        "index": r.index, "kind": r.kind.as_str(), "hand": r.hand_number,
        "postings": format!("{:?}", r.postings), "scores": r.scores_after,
        "contract": format!("{:?}", r.line.contract), "cells": format!("{:?}", r.line.cells),
        "kitty": kitty, "ends": format!("{:?}", r.game_ends), "amends": format!("{:?}", r.amends),
        "changed_by": format!("{:?}", r.changed_by),
        "standing_after": format!("{:?}", r.standing_after),
        // An amendment's words are its own, never quiet.
        "amendment": r.kind.amends().then(|| r.explanation.clone()),
    })
}

/// `doc` folded with every event quiet, as the service's long reads fold the older ones.
fn quietly(doc: &format::SessionDoc) -> Fold {
    let mut fold = format::start(doc).unwrap();
    fold.quiet_before(doc.events.len());
    for (i, event) in doc.events.iter().enumerate() {
        fold.apply(i, event).unwrap();
    }
    fold
}

#[test]
fn a_quiet_fold_keeps_all_but_the_words() {
    for (game, players, agreements) in hands::games() {
        let mut doc = hands::session(game, players, &agreements, 200);
        let hand = replacement(game, players, &doc, 2);
        let events = doc["events"].as_array_mut().unwrap();
        events.push(json!({"type": "correction", "event": 2, "replacement": hand}));
        events.push(json!({"type": "void", "event": 150}));
        events.push(hands::hand(game, players, 200));
        let doc: format::SessionDoc = serde_json::from_value(doc).unwrap();
        let loud = format::replay::fold(&doc).unwrap();
        let quiet = quietly(&doc);
        assert_eq!(loud.rows().len(), quiet.rows().len(), "{game}: rows");
        for (a, b) in loud.rows().iter().zip(quiet.rows()) {
            assert_eq!(kept(a), kept(b), "{game}: row of event {:?}", a.index);
        }
        assert_eq!(loud.balances(), quiet.balances(), "{game}: balances");
        assert_eq!(loud.games(), quiet.games(), "{game}: games");
        assert!(loud.engine().same_state(quiet.engine()), "{game}: engine");
        assert_eq!(
            facts(&loud, &doc),
            facts(&quiet, &doc),
            "{game}: history facts"
        );
        if game == "auction_game" {
            // The game that keeps quiet: only the amendments' own rows are in words.
            let words = |fold: &Fold| {
                let rows = fold.rows().iter().filter(|r| !r.explanation.is_empty());
                rows.filter(|r| !r.kind.amends()).count()
            };
            assert_eq!((words(&loud), words(&quiet)), (201, 0), "{game}: words");
        }
    }
}
