//! Tests of `partnership.rs`.

use super::*;

fn seating() -> Seating {
    Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap()
}

#[test]
fn seats_one_and_three_are_ns() {
    let s = seating();
    assert_eq!(s.side_of("N"), Some(Side::NS));
    assert_eq!(s.side_of("E"), Some(Side::EW));
    assert_eq!(s.side_of("S"), Some(Side::NS));
    assert_eq!(s.side_of("W"), Some(Side::EW));
    assert_eq!(s.side_of("X"), None);
    assert_eq!(s.members(Side::NS), ["N", "S"]);
    assert_eq!(s.members(Side::EW), ["E", "W"]);
    assert_eq!(Side::NS.other(), Side::EW);
    assert_eq!(Side::from_name("EW"), Some(Side::EW));
    assert_eq!(Side::from_name("ew"), None);
}

#[test]
fn partners_sit_opposite_and_opposite_numbers_pair_n_e_and_s_w() {
    let s = seating();
    assert_eq!(s.partner("N"), Some("S"));
    assert_eq!(s.partner("W"), Some("E"));
    assert_eq!(s.opposite_number("N"), Some("E"));
    assert_eq!(s.opposite_number("E"), Some("N"));
    assert_eq!(s.opposite_number("S"), Some("W"));
    assert_eq!(s.opposite_number("W"), Some("S"));
    for p in ["N", "E", "S", "W"] {
        let o = s.opposite_number(p).unwrap();
        assert_ne!(s.side_of(p), s.side_of(o));
    }
}

#[test]
fn seating_needs_four_different_players() {
    assert!(Seating::new(&["A", "B", "C"].map(String::from)).is_err());
    let e = Seating::new(&["A", "B", "A", "C"].map(String::from)).unwrap_err();
    assert_eq!(e.field, "players");
}

fn hands(ns: (i64, i64, Option<bool>), ew: (i64, i64, Option<bool>)) -> PerSide<SideHand> {
    PerSide::new(
        SideHand::new(ns.0, ns.1, ns.2),
        SideHand::new(ew.0, ew.1, ew.2),
    )
}

#[test]
fn tricks_must_sum_to_250() {
    assert!(check_hands(&hands((100, 180, None), (60, 70, None))).is_ok());
    let e = check_hands(&hands((100, 180, None), (60, 60, None))).unwrap_err();
    assert_eq!(e.field, "EW.tricks");
    assert!(e.message.contains("240"), "{}", e.message);
    let e = check_hands(&hands((0, 260, None), (0, -10, None))).unwrap_err();
    assert_eq!(e.field, "NS.tricks");
}

#[test]
fn meld_is_a_non_negative_multiple_of_ten() {
    let e = check_hands(&hands((-20, 180, None), (0, 70, None))).unwrap_err();
    assert_eq!(e.field, "NS.meld");
    let e = check_hands(&hands((0, 180, None), (65, 70, None))).unwrap_err();
    assert_eq!(e.field, "EW.meld");
    let e = check_hands(&hands((MAX_MELD + 10, 180, None), (0, 70, None))).unwrap_err();
    assert_eq!(e.field, "NS.meld");
}

#[test]
fn trick_flags_must_agree_with_the_points() {
    let e = check_hands(&hands((0, 180, Some(false)), (0, 70, None))).unwrap_err();
    assert_eq!(e.field, "NS.won_trick");
    let e = check_hands(&hands((0, 250, Some(false)), (0, 0, None))).unwrap_err();
    assert_eq!(e.field, "NS.won_trick");
    // A trick with no points in it still counts as won when the table says so.
    let h = hands((40, 250, None), (60, 0, Some(true)));
    assert!(check_hands(&h).is_ok());
    assert_eq!(h.ew.counted_meld(true), 60);
    let h = hands((40, 250, None), (60, 0, None));
    assert!(!h.ew.won_trick);
    assert_eq!(h.ew.counted_meld(true), 0);
    assert_eq!(h.ew.counted_meld(false), 60);
    assert_eq!(h.ns.points(true), 290);
}

#[test]
fn target_is_reached_at_or_above() {
    let t = |ns, ew| target_reached(&PerSide::new(ns, ew), 1000);
    assert_eq!(t(999, -50), TargetReached::Neither);
    assert_eq!(t(1000, 990), TargetReached::One(Side::NS));
    assert_eq!(t(400, 1200), TargetReached::One(Side::EW));
    assert_eq!(t(1060, 1090), TargetReached::Both);
}

#[test]
fn opening_scores_are_per_side() {
    assert_eq!(read_opening_scores(None).unwrap(), PerSide::new(0, 0));
    assert_eq!(
        read_opening_scores(Some(&Value::Null)).unwrap(),
        PerSide::new(0, 0)
    );
    let v = json!({"NS": 850, "EW": -70});
    assert_eq!(
        read_opening_scores(Some(&v)).unwrap(),
        PerSide::new(850, -70)
    );
    let v = json!({"EW": 700});
    assert_eq!(read_opening_scores(Some(&v)).unwrap(), PerSide::new(0, 700));
    let v = json!({"Ann": 7});
    assert_eq!(
        read_opening_scores(Some(&v)).unwrap_err().field,
        "opening_scores.Ann"
    );
    let v = json!({"NS": "850"});
    assert_eq!(
        read_opening_scores(Some(&v)).unwrap_err().field,
        "opening_scores.NS"
    );
    assert!(read_opening_scores(Some(&json!([1, 2]))).is_err());
}

#[test]
fn per_side_values_swap_and_serialise() {
    let p = PerSide::new(320, 130);
    assert_eq!(p.swapped(), PerSide::new(130, 320));
    assert_eq!(p.to_json(), json!({"NS": 320, "EW": 130}));
    assert_eq!(Side::of_seat(0), Side::NS);
    assert_eq!(Side::of_seat(3), Side::EW);
}

#[test]
fn each_loser_pays_his_opposite_number_the_stake_per_game() {
    let s = Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap();
    // NS win at 0.25: E pays N, W pays S, 0.25 each; the steps hold every cent.
    let (p, why, steps) = pay_game(&s, Side::NS, Money::from_cents(25));
    assert_eq!(
        ["N", "E", "S", "W"].map(|x| p.net(x).cents()),
        [25, -25, 25, -25]
    );
    assert_eq!(why, "0.25 a game each: E pays N 0.25, W pays S 0.25");
    assert_eq!(steps.len(), 3);
    assert!(matches!(&steps[1], Step::Pays { from, to, amount, .. }
        if from == "E" && to == "N" && amount.cents() == 25));
    assert!(matches!(&steps[2], Step::Pays { from, to, .. } if from == "W" && to == "S"));
    // EW win at 1.00: N pays E, S pays W.
    let (p, why, _) = pay_game(&s, Side::EW, Money::from_cents(100));
    assert_eq!(
        ["N", "E", "S", "W"].map(|x| p.net(x).cents()),
        [-100, 100, -100, 100]
    );
    assert!(why.contains("N pays E 1.00, S pays W 1.00"), "{why}");
    let (p, why, steps) = pay_game(&s, Side::EW, Money::ZERO);
    assert!(p.into_vec().is_empty() && steps.is_empty());
    assert!(why.contains("points only"), "{why}");
}
