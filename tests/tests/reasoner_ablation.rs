//! End-to-end tests of the reasoner's options for the experiments' ablations
//! and oracle (issue 18): `solve --retrieval similar|random|none` and
//! `settings --grid N`, against the stand-in solver of
//! `reasoner_common/standin.rs`.

use std::collections::BTreeSet;

use serde_json::Value;

mod reasoner_common;
use reasoner_common::standin::*;
use reasoner_common::{json_of, s, Scratch};

const FAR: Feat = [20.0, 20.0, 3.0, 1.0, 2.0, 4.0, 30.0];

/// `reasoner solve` on a puzzle the stand-in never solves, with two cases.
fn run(dir: &Scratch, retrieval: &str, seed: u64) -> Value {
    let solver = standin(dir, "never");
    let p = puzzle(dir, "query", QUERY);
    let cb = write_casebase(
        dir,
        &[
            case_toml("near", QUERY, "algorithm = \"astar\"\nweight = 3.0"),
            case_toml("far", FAR, "algorithm = \"bfs\"\nspace_value = 7"),
        ],
    );
    let seed = seed.to_string();
    let (out, v) = solve_json(&[
        "solve",
        s(&p),
        "--casebase",
        s(&cb),
        "--solver",
        s(&solver),
        "--json",
        "--no-final",
        "--attempts",
        "4",
        // The ablations compare the limited attempts: no parking rows.
        "--parks",
        "0",
        "--retrieval",
        retrieval,
        "--seed",
        &seed,
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(v["retrieval"], retrieval);
    v
}

fn reused(v: &Value) -> Vec<String> {
    v["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["phase"] == "reuse")
        .map(|a| a["case"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn similar_reuses_the_cases_by_similarity() {
    let v = run(&Scratch::new("abl-similar"), "similar", 1);
    assert_eq!(reused(&v), ["near", "far"]);
}

#[test]
fn none_starts_from_the_general_settings() {
    let v = run(&Scratch::new("abl-none"), "none", 1);
    assert_eq!(v["retrieved"].as_array().unwrap().len(), 0);
    assert!(reused(&v).is_empty());
    // The attempts' budget (4) goes to the general settings, the thesis's first.
    let names: Vec<&str> = v["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["phase"] == "general")
        .map(|a| a["case"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(
        names.iter().all(|n| n.starts_with("standard: ")),
        "{names:?}"
    );
}

#[test]
fn random_reuses_one_case_drawn_from_the_seed() {
    let dir = Scratch::new("abl-random");
    let mut drawn = BTreeSet::new();
    for seed in 0..6 {
        let v = run(&dir, "random", seed);
        let retrieved = v["retrieved"].as_array().unwrap();
        assert_eq!(retrieved.len(), 1);
        let name = retrieved[0]["name"].as_str().unwrap().to_string();
        assert_eq!(reused(&v), std::slice::from_ref(&name));
        // The rest of the budget goes to the general settings.
        let all = v["attempts"].as_array().unwrap();
        assert_eq!(all.len(), 4);
        assert!(all[1..].iter().all(|a| a["phase"] == "general"), "{v}");
        drawn.insert(name);
    }
    // Not always the most similar case.
    assert_eq!(drawn.into_iter().collect::<Vec<_>>(), ["far", "near"]);
}

#[test]
fn an_unknown_retrieval_is_a_usage_error() {
    let out = reasoner(&[
        "solve",
        "x.txt",
        "--casebase",
        "x.toml",
        "--retrieval",
        "thesis",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--retrieval") && err.contains("similar, random, none"),
        "{err}"
    );
}

#[test]
fn the_grid_holds_the_general_settings_then_distinct_sets() {
    let dir = Scratch::new("abl-grid");
    let solver = standin(&dir, "never");
    let grid = |seed: &str| {
        let out = reasoner(&[
            "settings",
            "--spaces",
            "3",
            "--grid",
            "50",
            "--seed",
            seed,
            "--json",
            "--solver",
            s(&solver),
        ]);
        end_to_end::assert_success(&out, "");
        json_of(&out).as_array().unwrap().clone()
    };
    let a = grid("1");
    assert_eq!(a.len(), 50);
    let general = json_of(&reasoner(&["settings", "--spaces", "3", "--json"]));
    assert_eq!(&a[..4], general.as_array().unwrap().as_slice());
    let args: BTreeSet<String> = a.iter().map(|x| x["args"].to_string()).collect();
    assert_eq!(args.len(), 50, "a set repeated");
    assert_eq!(grid("1"), a);
    assert_ne!(grid("2"), a);
}
