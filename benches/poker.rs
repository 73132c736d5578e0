//! How fast poker's evaluator and pot splitter settle a 10-player showdown (rules §1.11):
//! ten five-card hands ranked, with and without wild deuces, and the ten-player pots (four
//! all-ins, so a main pot and four side pots) built and split. Throughput is in hands
//! ranked per second.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scorekeeper::rules::poker::cards::{self, Card, LowRule, Wild};
use scorekeeper::rules::poker::pots;

/// Ten hands dealt from one pack (50 distinct cards).
fn ten_hands() -> Vec<Vec<Card>> {
    [
        "AS KS QS JS TS",
        "9H 9D 9S 9C 2H",
        "8C 8D 8H 3S 3D",
        "2C 5C 7C JC KC",
        "4H 5D 6S 7H 8S",
        "TD TC TH 4D 6D",
        "JH JD QH QD 2D",
        "AH AD 3C 5H 7D",
        "KD QC 4S 3H 6C",
        "6H 7S 2S 4C 5S",
    ]
    .iter()
    .map(|t| cards::parse_hand(t).unwrap())
    .collect()
}

fn showdown(c: &mut Criterion) {
    let hands = ten_hands();
    let none = Wild::default();
    let deuces = Wild {
        jokers: false,
        deuces: true,
    };
    let mut group = c.benchmark_group("poker_showdown_10_players");
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.bench_function("rank_high", |b| {
        b.iter(|| {
            for h in &hands {
                black_box(cards::high(black_box(h), none));
            }
        })
    });
    group.bench_function("rank_high_deuces_wild", |b| {
        b.iter(|| {
            for h in &hands {
                black_box(cards::high(black_box(h), deuces));
            }
        })
    });
    group.bench_function("rank_high_and_low", |b| {
        b.iter(|| {
            for h in &hands {
                black_box(cards::high(black_box(h), none));
                black_box(cards::low(black_box(h), none, LowRule::AceToFive));
            }
        })
    });
    // Ranked hands and the pots of a 10-player hand with four all-ins, each pot split
    // among its best eligible players.
    let contributions = [20i64, 20, 20, 20, 20, 20, 4, 8, 12, 16];
    let folded = [false; 10];
    let all_in = [
        false, false, false, false, false, false, true, true, true, true,
    ];
    group.bench_function("rank_and_split_pots", |b| {
        b.iter(|| {
            let values: Vec<_> = hands.iter().map(|h| cards::high(h, none)).collect();
            let pots = pots::build(black_box(&contributions), &folded, &all_in).unwrap();
            for pot in &pots {
                let best = pot.eligible.iter().map(|s| values[*s]).max().unwrap();
                let winners: Vec<usize> = pot
                    .eligible
                    .iter()
                    .copied()
                    .filter(|s| values[*s] == best)
                    .collect();
                black_box(pots::split(pot.amount, &winners, false));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, showdown);
criterion_main!(benches);
