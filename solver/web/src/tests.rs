//! The page's requests answered natively, as the module answers them in the
//! browser: moves judged by the verifier, hints at the known optima.

use serde_json::Value;

use super::handle;

fn bundled(path: &str) -> String {
    let file = format!("{}/../../puzzles/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The reply to a request built from `fields`, as JSON.
fn ask(fields: Value) -> Value {
    serde_json::from_str(&handle(&fields.to_string())).expect("replies are JSON")
}

fn ok(reply: &Value) -> &Value {
    assert_eq!(reply["ok"], true, "{reply}");
    reply
}

#[test]
fn open_draws_the_start_and_refuses_bad_text_with_its_place() {
    let classic = bundled("klotski/classic.txt");
    let r = ask(serde_json::json!({"op": "open", "puzzle": classic}));
    ok(&r);
    assert_eq!(r["anchors"].as_array().unwrap().len(), 10);
    assert!(r["svg"].as_str().unwrap().starts_with("<svg"));
    let bad = ask(serde_json::json!({"op": "open", "puzzle": "!\n@\n!\n###\n#@q\n###\n!\n"}));
    assert_eq!(bad["ok"], false);
    assert!(bad["error"].as_str().unwrap().contains("puzzle:"), "{bad}");
}

#[test]
fn a_step_is_legal_only_where_the_verifier_says_so() {
    let classic = bundled("klotski/classic.txt");
    // Instance order is the start's: the master first. It is boxed in.
    let blocked = ask(serde_json::json!({
        "op": "step", "puzzle": classic, "instance": 0, "direction": "D"}));
    assert_eq!(blocked["ok"], false, "{blocked}");
    // One of the two lone squares on the bottom row can move sideways.
    let anchors = ask(serde_json::json!({"op": "open", "puzzle": classic}))["anchors"].clone();
    let width = 6;
    let bottom_left = anchors
        .as_array()
        .unwrap()
        .iter()
        .position(|a| a.as_u64() == Some(5 * width + 1))
        .expect("a block on the bottom row's first cell");
    let r = ask(serde_json::json!({
        "op": "step", "puzzle": classic, "instance": bottom_left, "direction": "R"}));
    ok(&r);
    assert_eq!(r["line"], "o 5,1 R");
    assert_eq!(r["anchors"][bottom_left], 5 * width + 2);
    assert_eq!(
        (r["steps"].as_u64(), r["moves"].as_u64()),
        (Some(1), Some(1))
    );
}

/// A hint's solution, appended to the moves that led there, solves the
/// puzzle when the verifier replays the whole.
fn hint_solves(puzzle: &str, moves: &str, metric: &str) -> Value {
    let h = ask(serde_json::json!({
        "op": "hint", "puzzle": puzzle, "moves": moves, "metric": metric}));
    ok(&h);
    assert_eq!(h["status"], "solved", "{h}");
    let lines: Vec<&str> = h["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let all = format!("{moves}{}\n", lines.join("\n"));
    let replay = ask(serde_json::json!({"op": "play", "puzzle": puzzle, "moves": all}));
    assert_eq!(ok(&replay)["solved"], true, "{replay}");
    let frames = ask(serde_json::json!({"op": "frames", "puzzle": puzzle, "moves": all}));
    assert_eq!(ok(&frames)["solved"], true, "{frames}");
    let count = all.lines().count() + 1;
    assert_eq!(frames["frames"].as_array().unwrap().len(), count);
    assert_eq!(frames["frames"][count - 1], replay["anchors"]);
    h
}

#[test]
fn hints_from_the_start_are_optimal() {
    let classic = bundled("klotski/classic.txt");
    assert_eq!(hint_solves(&classic, "", "moves")["length"], 81);
    assert_eq!(hint_solves(&classic, "", "steps")["length"], 116);
    let rush = bundled("rushhour/rush_40.txt");
    assert_eq!(hint_solves(&rush, "", "moves")["length"], 40);
}

#[test]
fn a_hint_answers_from_the_position_reached() {
    let classic = bundled("klotski/classic.txt");
    // One move away from the start: the shortest solution from there is
    // at least 80 moves (with the move made, fewer would beat the optimum
    // of 81) and at most 82 (undo it, then 81); the whole replays to the goal.
    let h = hint_solves(&classic, "o 5,1 R\n", "moves");
    let length = h["length"].as_u64().unwrap();
    assert!((80..=82).contains(&length), "{h}");
}

#[test]
fn a_position_too_hard_for_the_limit_says_so() {
    let classic = bundled("klotski/classic.txt");
    let h = ask(serde_json::json!({
        "op": "hint", "puzzle": classic, "max_positions": 100}));
    ok(&h);
    assert_eq!(h["status"], "too_hard", "{h}");
    assert!(h["message"].as_str().unwrap().contains("too hard"), "{h}");
}

#[test]
fn requests_that_make_no_sense_are_refused_not_panicked_on() {
    for request in ["", "[]", "{\"op\":\"fly\"}", "{\"op\":\"play\"}"] {
        let r: Value = serde_json::from_str(&handle(request)).unwrap();
        assert_eq!(r["ok"], false, "{request}: {r}");
    }
    let classic = bundled("klotski/classic.txt");
    let r = ask(serde_json::json!({"op": "play", "puzzle": classic, "moves": "@ 1,2 U\n"}));
    assert_eq!(r["ok"], false);
    assert!(r["error"].as_str().unwrap().contains("move 1"), "{r}");
    let r = ask(serde_json::json!({
        "op": "step", "puzzle": classic, "instance": 99, "direction": "U"}));
    assert!(r["error"].as_str().unwrap().contains("no block 99"), "{r}");
}
