//! Tests of `checks.rs`.

use super::*;

fn scarne_with_hoyle_numbers() -> CheckTable {
    CheckTable::scarne(&HOYLE_MAKE).unwrap()
}

#[test]
fn hoyle_make_bands() {
    let t = CheckTable::hoyle();
    let expect = [
        (200, 2),
        (240, 2),
        (250, 4),
        (290, 4),
        (300, 7),
        (340, 7),
        (350, 10),
        (390, 10),
        (400, 15),
        (440, 15),
        (450, 20),
        (490, 20),
        (500, 25),
        (540, 25),
        (550, 30),
        (590, 30),
    ];
    for (bid, checks) in expect {
        assert_eq!(t.make_checks(bid), checks, "make {bid}");
        assert_eq!(t.defeat_checks(bid), 2 * checks, "defeat {bid}");
    }
}

#[test]
fn hoyle_steps_above_590_are_five_and_ten() {
    let t = CheckTable::hoyle();
    assert_eq!(t.make_checks(600), 35);
    assert_eq!(t.make_checks(640), 35);
    assert_eq!(t.make_checks(650), 40);
    assert_eq!(t.make_checks(700), 45);
    assert_eq!(t.defeat_checks(600), 70);
    assert_eq!(t.defeat_checks(650), 80);
    assert_eq!(t.defeat_checks(700), 90);
    assert_eq!(t.slam, 5);
    assert_eq!(t.all_count, 0);
}

#[test]
fn scarne_steps_above_590_are_three_and_six() {
    let t = scarne_with_hoyle_numbers();
    assert_eq!(t.make_checks(590), 30);
    assert_eq!(t.make_checks(600), 33);
    assert_eq!(t.make_checks(690), 36);
    assert_eq!(t.make_checks(700), 39);
    assert_eq!(t.defeat_checks(350), 20);
    assert_eq!(t.defeat_checks(600), 66);
    assert_eq!(t.defeat_checks(700), 78);
    assert_eq!(t.slam, 5);
    assert_eq!(t.all_count, 4);
}

#[test]
fn scarne_bands_follow_the_agreement() {
    let t = CheckTable::scarne(&[(200, 1), (300, 5), (450, 12)]).unwrap();
    assert_eq!(t.make_checks(290), 1);
    assert_eq!(t.make_checks(440), 5);
    assert_eq!(t.make_checks(590), 12);
    assert_eq!(t.make_checks(600), 15);
    assert_eq!(t.defeat_checks(450), 24);
    assert_eq!(t.band_label(450), "450–590");
    assert!(CheckTable::scarne(&[(250, 4)]).is_err());
    assert!(CheckTable::scarne(&[]).is_err());
    assert!(CheckTable::scarne(&[(200, 2), (600, 40)]).is_err());
    assert!(CheckTable::scarne(&[(200, 2), (200, 4)]).is_err());
    assert!(CheckTable::scarne(&[(200, 2), (255, 4)]).is_err());
    assert!(CheckTable::scarne(&[(200, -2)]).is_err());
}

#[test]
fn band_labels() {
    let t = CheckTable::hoyle();
    assert_eq!(t.band_label(200), "200–240");
    assert_eq!(t.band_label(350), "350–390");
    assert_eq!(t.band_label(590), "550–590");
    assert_eq!(t.band_label(600), "600–640");
    assert_eq!(t.band_label(660), "650–690");
    let open = CheckTable::custom(&[(200, 1), (300, 3)], None, None, 5, 0).unwrap();
    assert_eq!(open.band_label(900), "300 or over");
    assert_eq!(open.make_checks(900), 3);
}

#[test]
fn custom_tables() {
    let f = Further {
        from: 500,
        every: 100,
        make: 4,
        defeat: 9,
    };
    let t = CheckTable::custom(
        &[(200, 1), (300, 3)],
        Some(&[(200, 3), (400, 8)]),
        Some(f),
        6,
        2,
    )
    .unwrap();
    assert_eq!(t.make_checks(250), 1);
    assert_eq!(t.defeat_checks(250), 3);
    assert_eq!(t.defeat_checks(450), 8);
    assert_eq!(t.make_checks(500), 7);
    assert_eq!(t.make_checks(599), 7);
    assert_eq!(t.make_checks(600), 11);
    assert_eq!(t.make_checks(700), 15);
    assert_eq!(t.defeat_checks(700), 8 + 27);
    assert_eq!((t.slam, t.all_count), (6, 2));
    let bad_from = Further { from: 300, ..f };
    assert!(CheckTable::custom(&[(200, 1), (300, 3)], None, Some(bad_from), 5, 0).is_err());
    let bad_every = Further { every: 0, ..f };
    assert!(CheckTable::custom(&[(200, 1)], None, Some(bad_every), 5, 0).is_err());
    assert!(CheckTable::custom(&[(200, 1)], None, None, -1, 0).is_err());
    assert!(CheckTable::custom(&[(200, 1)], Some(&[(210, 1)]), None, 5, 0).is_err());
}

#[test]
fn meld_values_default_to_bicycle() {
    let v = MeldValues::HOYLE;
    let expect = [2, 2, 1, 1, 1, 2, 5];
    for (m, e) in MeldCheck::ALL.iter().zip(expect) {
        assert_eq!(v.get(*m), e, "{}", m.id());
    }
    let mut w = v;
    w.set(MeldCheck::Roundhouse, 8);
    assert_eq!(w.get(MeldCheck::Roundhouse), 8);
    assert_eq!(w.get(MeldCheck::Flush), 2);
}

#[test]
fn game_awards() {
    assert_eq!(GameAward::Scarne.checks(1160, 810).0, 7);
    assert_eq!(GameAward::Time1940.checks(1000, 0).0, 15);
    assert_eq!(GameAward::Fixed(12).checks(1000, 0).0, 12);
    // Hoyle: 10 + 1 per 100 points or fraction of the margin.
    assert_eq!(GameAward::Hoyle.checks(1000, 1000).0, 10);
    assert_eq!(GameAward::Hoyle.checks(1001, 1000).0, 11);
    assert_eq!(GameAward::Hoyle.checks(1100, 1000).0, 11);
    assert_eq!(GameAward::Hoyle.checks(1101, 1000).0, 12);
    assert_eq!(GameAward::Hoyle.checks(1160, 810).0, 14);
    assert_eq!(GameAward::Hoyle.checks(1000, 700).0, 13);
    // + 5 when the losers are net minus.
    assert_eq!(GameAward::Hoyle.checks(1020, -30).0, 10 + 11 + 5);
    assert_eq!(GameAward::Hoyle.checks(1000, 0).0, 20);
    // The bidding side may win from behind: no margin checks, never fewer than 10.
    assert_eq!(GameAward::Hoyle.checks(1060, 1090).0, 10);
}

#[test]
fn meld_facts() {
    assert_eq!(MeldCheck::DoublePinochle.most_per_deal(), 1);
    assert_eq!(MeldCheck::Aces100.most_per_deal(), 2);
    assert_eq!(MeldCheck::Roundhouse.least_points(), 240);
    for m in MeldCheck::ALL {
        let parsed: MeldCheck = serde_json::from_value(serde_json::json!(m.id())).unwrap();
        assert_eq!(parsed, m);
    }
}
