//! Differences between two JSON documents, as the small updates the WebSocket sends instead
//! of a whole state document (docs/api.md, *Updates*).
//!
//! A difference is a list of operations applied in order to the older document:
//!
//! - `{"op": "set", "path": [...], "value": V}`: the value at `path` becomes `V`;
//! - `{"op": "del", "path": [...]}`: the object key at `path` is removed;
//! - `{"op": "push", "path": [...], "values": [...]}`: the array at `path` grows by `values`;
//! - `{"op": "splice", "path": [...], "at": I, "remove": N, "values": [...]}`: in the array at
//!   `path`, the `N` elements from index `I` on are replaced by `values`.
//!
//! A path is a list of object keys (strings) and array indices (numbers) from the root.
//! Arrays are compared element by element: the elements both documents share (found by a
//! shortest edit script, as a text diff finds common lines) stay where they are, an element
//! that changed in place sends only what changed inside it, and elements inserted or
//! removed are one `splice`; so one counter moving among a hundred sends that counter's
//! changed fields, and a counter appearing sends that counter.
//!
//! [`apply`] is the client's side, written here so that tests and the load benchmark check
//! that the operations rebuild exactly the newer document.

use serde::Serialize;
use serde_json::{Map, Value};

/// One step of a path: an object key or an array index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Step<'a> {
    /// An object key.
    Key(&'a str),
    /// An array index.
    Index(usize),
}

/// One operation of a difference, borrowing its values from the newer document (written
/// as JSON with `serde_json`, as docs/api.md shows them).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum Op<'a> {
    /// The value at `path` becomes `value`.
    Set {
        /// Where.
        path: Vec<Step<'a>>,
        /// The new value.
        value: &'a Value,
    },
    /// The object key at `path` is removed.
    Del {
        /// Where.
        path: Vec<Step<'a>>,
    },
    /// The array at `path` grows by `values`.
    Push {
        /// Where.
        path: Vec<Step<'a>>,
        /// The new elements.
        values: &'a [Value],
    },
    /// In the array at `path`, `remove` elements from index `at` on are replaced by `values`.
    Splice {
        /// Where.
        path: Vec<Step<'a>>,
        /// The first index replaced.
        at: usize,
        /// How many elements are removed.
        remove: usize,
        /// The elements put in their place.
        values: &'a [Value],
    },
}

/// The longest edit script looked for between the changed middles of two arrays; past it,
/// the middle is sent whole (the arrays have little in common, and looking costs time).
const MAX_EDITS: usize = 48;

/// The operations that turn `old` into `new` (empty when they are equal).
pub fn diff<'a>(old: &'a Value, new: &'a Value) -> Vec<Op<'a>> {
    let mut ops = Vec::new();
    let mut path = Vec::new();
    walk(old, new, &mut path, &mut ops);
    ops
}

/// Adds to `ops` the operations turning `old` into `new`, two values found at `path` of
/// the documents.
pub fn diff_into<'a>(
    old: &'a Value,
    new: &'a Value,
    mut path: Vec<Step<'a>>,
    ops: &mut Vec<Op<'a>>,
) {
    walk(old, new, &mut path, ops);
}

/// Adds the operations turning `old` into `new` at `path`.
fn walk<'a>(old: &'a Value, new: &'a Value, path: &mut Vec<Step<'a>>, ops: &mut Vec<Op<'a>>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            let mut kept = 0;
            for (k, v) in b {
                path.push(Step::Key(k));
                match a.get(k) {
                    Some(w) => {
                        kept += 1;
                        walk(w, v, path, ops);
                    }
                    None => ops.push(Op::Set {
                        path: path.clone(),
                        value: v,
                    }),
                }
                path.pop();
            }
            if kept < a.len() {
                for k in a.keys().filter(|k| !b.contains_key(*k)) {
                    path.push(Step::Key(k));
                    ops.push(Op::Del { path: path.clone() });
                    path.pop();
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => arrays(a, b, new, path, ops),
        _ if old == new => {}
        _ => ops.push(Op::Set {
            path: path.clone(),
            value: new,
        }),
    }
}

/// Adds the operations turning array `a` into array `b` (which is `whole`) at `path`.
fn arrays<'a>(
    a: &'a [Value],
    b: &'a [Value],
    whole: &'a Value,
    path: &mut Vec<Step<'a>>,
    ops: &mut Vec<Op<'a>>,
) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a_rest, b_rest) = (&a[prefix..], &b[prefix..]);
    let suffix = a_rest
        .iter()
        .rev()
        .zip(b_rest.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let old_mid = &a_rest[..a_rest.len() - suffix];
    let new_mid = &b_rest[..b_rest.len() - suffix];
    if old_mid.is_empty() && new_mid.is_empty() {
        return;
    }
    if old_mid.is_empty() && suffix == 0 {
        ops.push(Op::Push {
            path: path.clone(),
            values: new_mid,
        });
        return;
    }
    let common = if old_mid.is_empty() || new_mid.is_empty() {
        Some(Vec::new())
    } else {
        common_elements(old_mid, new_mid, MAX_EDITS)
    };
    let Some(common) = common else {
        if prefix == 0 && suffix == 0 {
            ops.push(Op::Set {
                path: path.clone(),
                value: whole,
            });
        } else {
            ops.push(Op::Splice {
                path: path.clone(),
                at: prefix,
                remove: old_mid.len(),
                values: new_mid,
            });
        }
        return;
    };
    // The runs between common elements, each replacing old[i..i+r] by new[j..j+n], last
    // first: indices before a run are still the older document's when it is applied.
    let mut runs = Vec::new();
    let (mut i, mut j) = (0, 0);
    for &(x, y) in common.iter().chain([(old_mid.len(), new_mid.len())].iter()) {
        if x > i || y > j {
            runs.push((i, x - i, j, y - j));
        }
        (i, j) = (x + 1, y + 1);
    }
    for &(i, removed, j, added) in runs.iter().rev() {
        let paired = removed.min(added);
        for t in 0..paired {
            path.push(Step::Index(prefix + i + t));
            element(&old_mid[i + t], &new_mid[j + t], path, ops);
            path.pop();
        }
        if removed > paired || added > paired {
            let at = prefix + i + paired;
            let values = &new_mid[j + paired..j + added];
            if removed == paired && at == a.len() {
                ops.push(Op::Push {
                    path: path.clone(),
                    values,
                });
            } else {
                ops.push(Op::Splice {
                    path: path.clone(),
                    at,
                    remove: removed - paired,
                    values,
                });
            }
        }
    }
}

/// Adds the operations turning array element `old` into `new` at `path`: what changed
/// inside it, unless most of it changed (then the element whole).
fn element<'a>(old: &'a Value, new: &'a Value, path: &mut Vec<Step<'a>>, ops: &mut Vec<Op<'a>>) {
    let before = ops.len();
    walk(old, new, path, ops);
    let fields = match new {
        Value::Object(o) => o.len(),
        Value::Array(a) => a.len(),
        _ => return,
    };
    if ops.len() - before > (fields / 2).max(1) {
        ops.truncate(before);
        ops.push(Op::Set {
            path: path.clone(),
            value: new,
        });
    }
}

/// The elements `a` and `b` have in common, as pairs of indices in order (a longest common
/// subsequence, by Myers' O(ND) algorithm), if `b` is at most `max_edits` insertions and
/// removals away from `a`.
fn common_elements(a: &[Value], b: &[Value], max_edits: usize) -> Option<Vec<(usize, usize)>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = max_edits.min(a.len() + b.len()) as isize;
    let offset = max + 1;
    // v[k + offset]: the furthest x reached on diagonal k = x - y.
    let mut v = vec![0isize; 2 * max as usize + 3];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    for d in 0..=max {
        trace.push(v.clone());
        let mut k = -d;
        while k <= d {
            let at = (k + offset) as usize;
            let mut x = if k == -d || (k != d && v[at - 1] < v[at + 1]) {
                v[at + 1]
            } else {
                v[at - 1] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[at] = x;
            if x >= n && y >= m {
                return Some(backtrack(&trace, n, m, offset));
            }
            k += 2;
        }
    }
    None
}

/// The common elements found by [`common_elements`], from the furthest points it kept.
fn backtrack(trace: &[Vec<isize>], n: isize, m: isize, offset: isize) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let (mut x, mut y) = (n, m);
    for (d, v) in trace.iter().enumerate().rev() {
        let d = d as isize;
        let k = x - y;
        let at = (k + offset) as usize;
        let prev_k = if k == -d || (k != d && v[at - 1] < v[at + 1]) {
            k + 1
        } else {
            k - 1
        };
        let prev_x = v[(prev_k + offset) as usize];
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y && x > 0 && y > 0 {
            x -= 1;
            y -= 1;
            pairs.push((x as usize, y as usize));
        }
        if d > 0 {
            (x, y) = (prev_x, prev_y);
        }
    }
    pairs.reverse();
    pairs
}

/// The operations as JSON text (a JSON array), as an update message carries them.
pub fn to_text(ops: &[Op]) -> String {
    serde_json::to_string(ops).expect("operations serialise")
}

/// Why operations could not be applied.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot apply update operation {index}: {reason}")]
pub struct ApplyError {
    /// The position of the operation in its list.
    pub index: usize,
    /// What did not fit.
    pub reason: String,
}

/// Applies operations (as JSON, as a client receives them) made by [`diff`] to `doc`.
pub fn apply(doc: &mut Value, ops: &[Value]) -> Result<(), ApplyError> {
    for (index, op) in ops.iter().enumerate() {
        let fail = |reason: &str| ApplyError {
            index,
            reason: reason.to_string(),
        };
        let path = op["path"].as_array().ok_or_else(|| fail("no path"))?;
        let (parent, last) = match path.split_last() {
            Some((last, parent)) => (parent, Some(last)),
            None => (&path[..], None),
        };
        let mut at = &mut *doc;
        for step in parent {
            at = step_into(at, step).ok_or_else(|| fail("the path leads nowhere"))?;
        }
        let kind = op["op"].as_str();
        match (kind, last) {
            (Some("set"), None) => *at = op["value"].clone(),
            (Some("set"), Some(Value::String(k))) => {
                at.as_object_mut()
                    .ok_or_else(|| fail("not an object"))?
                    .insert(k.clone(), op["value"].clone());
            }
            (Some("set"), Some(step)) => {
                *step_into(at, step).ok_or_else(|| fail("no such element"))? = op["value"].clone()
            }
            (Some("del"), Some(Value::String(k))) => {
                at.as_object_mut()
                    .ok_or_else(|| fail("not an object"))?
                    .remove(k);
            }
            (Some("push" | "splice"), _) => {
                let target = match last {
                    Some(step) => step_into(at, step).ok_or_else(|| fail("no such array"))?,
                    None => at,
                };
                let target = target.as_array_mut().ok_or_else(|| fail("not an array"))?;
                let values = op["values"].as_array().ok_or_else(|| fail("no values"))?;
                if kind == Some("push") {
                    target.extend(values.iter().cloned());
                } else {
                    let number = |key: &str| {
                        op[key]
                            .as_u64()
                            .and_then(|n| usize::try_from(n).ok())
                            .ok_or_else(|| fail(&format!("no `{key}`")))
                    };
                    let (from, remove) = (number("at")?, number("remove")?);
                    if from
                        .checked_add(remove)
                        .is_none_or(|end| end > target.len())
                    {
                        return Err(fail("the splice is past the end of the array"));
                    }
                    target.splice(from..from + remove, values.iter().cloned());
                }
            }
            _ => return Err(fail("unknown operation")),
        }
    }
    Ok(())
}

fn step_into<'a>(at: &'a mut Value, step: &Value) -> Option<&'a mut Value> {
    match step {
        Value::String(k) => at
            .as_object_mut()
            .and_then(|o: &mut Map<_, _>| o.get_mut(k)),
        Value::Number(i) => at
            .as_array_mut()
            .and_then(|a| a.get_mut(usize::try_from(i.as_u64()?).ok()?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The operations as a client receives them.
    fn sent(ops: &[Op]) -> Vec<Value> {
        serde_json::from_str(&to_text(ops)).expect("JSON")
    }

    fn round_trip(old: Value, new: Value) -> Vec<Value> {
        let ops = sent(&diff(&old, &new));
        let mut doc = old;
        apply(&mut doc, &ops).expect("applies");
        assert_eq!(doc, new);
        ops
    }

    #[test]
    fn equal_documents_need_nothing() {
        let d = json!({ "a": [1, 2, { "b": null }] });
        assert!(round_trip(d.clone(), d).is_empty());
    }

    #[test]
    fn fields_change_appear_and_disappear() {
        round_trip(
            json!({ "a": 1, "b": { "c": [1, 2] }, "gone": true, "n": null }),
            json!({ "a": 2, "b": { "c": [1, 2], "d": "x" }, "n": { "now": 1 } }),
        );
        round_trip(json!([1]), json!("not an array"));
        round_trip(json!({ "a": 1 }), json!(null));
    }

    fn counters(moved: &[(usize, &str)], count: usize) -> Vec<Value> {
        (0..count)
            .map(|i| {
                let hex = moved
                    .iter()
                    .find(|(m, _)| *m == i)
                    .map_or("0101", |(_, h)| *h);
                json!({ "id": i, "hex": hex, "name": format!("unit {i}"), "values": "5-6-6" })
            })
            .collect()
    }

    #[test]
    fn a_growing_log_is_pushed_and_one_moved_counter_is_one_set() {
        let log = |n: usize| (0..n).map(|i| json!({ "text": i })).collect::<Vec<_>>();
        let old = json!({ "log": log(5), "counters": counters(&[], 10) });
        let new = json!({ "log": log(7), "counters": counters(&[(3, "0202")], 10) });
        let ops = round_trip(old, new);
        assert_eq!(ops.len(), 2, "{ops:?}");
        assert_eq!(ops[0]["path"], json!(["counters", 3, "hex"]));
        assert_eq!(ops[0]["value"], "0202");
        assert_eq!(ops[1]["op"], "push");
        assert_eq!(ops[1]["values"], json!(log(7)[5..]));
    }

    #[test]
    fn a_counter_appearing_or_leaving_is_one_splice() {
        let old = counters(&[], 30);
        let mut new = old.clone();
        new.insert(12, json!({ "id": "new", "hex": "1010" }));
        // And another counter moves, further on.
        new[20]["hex"] = json!("0909");
        let ops = round_trip(json!({ "c": old.clone() }), json!({ "c": new.clone() }));
        assert_eq!(ops.len(), 2, "{ops:?}");
        assert_eq!(ops[0]["path"], json!(["c", 19, "hex"]), "{ops:?}");
        assert_eq!(ops[1]["op"], "splice");
        assert_eq!(ops[1]["at"], 12);
        assert_eq!(ops[1]["remove"], 0);
        assert_eq!(ops[1]["values"], json!([new[12]]));
        let ops = round_trip(json!({ "c": new }), json!({ "c": old }));
        assert_eq!(ops.len(), 2, "{ops:?}");
        assert!(ops
            .iter()
            .any(|o| o["op"] == "splice" && o["at"] == 12 && o["remove"] == 1));
    }

    #[test]
    fn an_element_mostly_changed_is_sent_whole() {
        let old = json!([{ "a": 1, "b": 2, "c": 3 }, 5]);
        let new = json!([{ "a": 9, "b": 8, "c": 3 }, 5]);
        let ops = round_trip(old, new);
        assert_eq!(
            ops,
            vec![json!({ "op": "set", "path": [0], "value": { "a": 9, "b": 8, "c": 3 } })]
        );
    }

    #[test]
    fn shrinking_reordered_and_unrelated_arrays_round_trip() {
        round_trip(json!({ "l": [1, 2, 3] }), json!({ "l": [1, 2] }));
        round_trip(json!({ "l": [1, 2, 3] }), json!({ "l": [3, 2, 1] }));
        round_trip(json!({ "l": [1, 2, 3] }), json!({ "l": [0, 1, 2, 3] }));
        round_trip(json!([1, 2, 3]), json!([]));
        round_trip(json!([]), json!([1]));
        let many = |from: i64| (from..from + 200).collect::<Vec<_>>();
        let ops = round_trip(json!(many(0)), json!(many(1000)));
        assert_eq!(ops.len(), 1, "too different to look further: one set");
        assert_eq!(ops[0]["op"], "set");
    }

    /// A small generator (xorshift) for the documents below.
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        /// A random document of at most `depth` levels.
        fn doc(&mut self, depth: u32) -> Value {
            let kind = if depth == 0 {
                self.below(4)
            } else {
                self.below(7)
            };
            match kind {
                0 => Value::Null,
                1 => json!(self.below(4)),
                2 => json!(["a", "b", "c"][self.below(3) as usize]),
                3 => json!(self.below(2) == 0),
                4 | 5 => Value::Array((0..self.below(8)).map(|_| self.doc(depth - 1)).collect()),
                _ => Value::Object(
                    (0..self.below(5))
                        .map(|_| {
                            (
                                ["k", "l", "m", "n", "o"][self.below(5) as usize].to_string(),
                                self.doc(depth - 1),
                            )
                        })
                        .collect(),
                ),
            }
        }

        /// `doc` changed a little: values replaced, array elements inserted, removed, moved.
        fn change(&mut self, doc: &Value, depth: u32) -> Value {
            match doc {
                Value::Array(a) => {
                    let mut a: Vec<Value> = a
                        .iter()
                        .map(|v| self.change(v, depth.saturating_sub(1)))
                        .collect();
                    for _ in 0..self.below(3) {
                        match self.below(3) {
                            0 => a.insert(
                                self.below(a.len() as u64 + 1) as usize,
                                self.doc(depth.saturating_sub(1)),
                            ),
                            1 if !a.is_empty() => {
                                a.remove(self.below(a.len() as u64) as usize);
                            }
                            _ if a.len() > 1 => {
                                let v = a.remove(self.below(a.len() as u64) as usize);
                                a.insert(self.below(a.len() as u64 + 1) as usize, v);
                            }
                            _ => {}
                        }
                    }
                    Value::Array(a)
                }
                Value::Object(o) => {
                    let mut o: Map<String, Value> = o
                        .iter()
                        .map(|(k, v)| (k.clone(), self.change(v, depth.saturating_sub(1))))
                        .collect();
                    if self.below(4) == 0 {
                        o.insert(
                            ["k", "p", "q"][self.below(3) as usize].to_string(),
                            self.doc(depth.saturating_sub(1)),
                        );
                    }
                    if self.below(4) == 0 {
                        o.remove(["k", "l", "m"][self.below(3) as usize]);
                    }
                    Value::Object(o)
                }
                _ if self.below(5) == 0 => self.doc(depth),
                v => v.clone(),
            }
        }
    }

    #[test]
    fn random_documents_round_trip() {
        let mut random = Random(0x2545_f491_4f6c_dd1d);
        for _ in 0..3000 {
            let old = random.doc(4);
            let new = if random.below(3) == 0 {
                random.doc(4)
            } else {
                random.change(&old, 4)
            };
            round_trip(old.clone(), new.clone());
            round_trip(new, old);
        }
    }

    #[test]
    fn long_arrays_with_scattered_changes_round_trip() {
        let mut random = Random(7);
        for _ in 0..200 {
            let old: Vec<Value> = (0..random.below(150))
                .map(|i| json!({ "id": i, "v": random.below(3) }))
                .collect();
            let mut new = old.clone();
            for _ in 0..random.below(60) {
                match random.below(3) {
                    0 => new.insert(
                        random.below(new.len() as u64 + 1) as usize,
                        json!({ "id": "x" }),
                    ),
                    1 if !new.is_empty() => {
                        new.remove(random.below(new.len() as u64) as usize);
                    }
                    _ if !new.is_empty() => {
                        let i = random.below(new.len() as u64) as usize;
                        new[i]["v"] = json!(9);
                    }
                    _ => {}
                }
            }
            round_trip(json!(old), json!(new));
        }
    }

    /// Every viewer's view and board of one game of each game, after each of its first
    /// actions (random legal ones), against the same viewer's before.
    #[test]
    fn real_game_views_round_trip() {
        let data = registry::all_data(None).expect("data");
        let mut games_seen = Vec::new();
        for scenario in registry::scenarios(&data).expect("scenarios") {
            if games_seen.contains(&scenario.game) {
                continue;
            }
            games_seen.push(scenario.game.clone());
            let mut game =
                registry::new_game(&scenario.id, &[], 11, engine::DiceMode::Seeded, None, &data)
                    .expect("a new game");
            let seats = game.seat_names().len();
            let viewers: Vec<engine::Viewer> = (0..seats)
                .map(|s| engine::Viewer::Seat(engine::Seat(s as u8)))
                .chain([engine::Viewer::Spectator])
                .collect();
            let doc = |game: &dyn registry::AnyGame, viewer| json!({ "view": game.view_json(viewer), "board": game.board(viewer) });
            let mut docs: Vec<Value> = viewers.iter().map(|&v| doc(game.as_ref(), v)).collect();
            let mut random = Random(3);
            let mut sent = 0;
            for _ in 0..150 {
                let pending = game.pending().seats().to_vec();
                let Some(&seat) = pending.get(random.below(pending.len().max(1) as u64) as usize)
                else {
                    break;
                };
                let legal = game.legal_actions(seat);
                let action = &legal[random.below(legal.len() as u64) as usize];
                game.act(seat, action, &[])
                    .expect("a legal action is taken");
                for (old, &viewer) in docs.iter_mut().zip(&viewers) {
                    let new = doc(game.as_ref(), viewer);
                    sent += round_trip(old.clone(), new.clone()).len();
                    *old = new;
                }
            }
            assert!(sent > 0, "{}: nothing changed", scenario.id);
        }
        assert!(games_seen.len() >= 3, "{games_seen:?}");
    }

    #[test]
    fn bad_operations_are_refused() {
        let mut doc = json!({ "a": 1, "l": [1, 2] });
        let e = apply(
            &mut doc,
            &[json!({ "op": "set", "path": ["x", "y"], "value": 1 })],
        );
        assert!(e.is_err());
        let e = apply(&mut doc, &[json!({ "op": "twist", "path": [] })]);
        assert_eq!(e.unwrap_err().reason, "unknown operation");
        let e = apply(
            &mut doc,
            &[json!({ "op": "splice", "path": ["l"], "at": 1, "remove": 2, "values": [] })],
        );
        assert_eq!(
            e.unwrap_err().reason,
            "the splice is past the end of the array"
        );
        let e = apply(
            &mut doc,
            &[json!({ "op": "splice", "path": ["a"], "at": 0, "remove": 0, "values": [] })],
        );
        assert_eq!(e.unwrap_err().reason, "not an array");
        assert_eq!(doc, json!({ "a": 1, "l": [1, 2] }));
    }
}
