//! Differences between two JSON documents, as the small updates the WebSocket sends instead
//! of a whole state document (docs/api.md, *Updates*).
//!
//! A difference is a list of operations applied in order to the older document:
//!
//! - `{"op": "set", "path": [...], "value": V}`: the value at `path` becomes `V`;
//! - `{"op": "del", "path": [...]}`: the object key at `path` is removed;
//! - `{"op": "push", "path": [...], "values": [...]}`: the array at `path` grows by `values`.
//!
//! A path is a list of object keys (strings) and array indices (numbers) from the root.
//! [`apply`] is the client's side, written here so that tests and the load benchmark check
//! that the operations rebuild exactly the newer document.

use serde_json::{json, Map, Value};

/// The operations that turn `old` into `new` (empty when they are equal).
pub fn diff(old: &Value, new: &Value) -> Vec<Value> {
    let mut ops = Vec::new();
    let mut path = Vec::new();
    walk(old, new, &mut path, &mut ops);
    ops
}

/// One operation: `op` at `path`, with its value or values under `key`.
fn op(op: &str, path: &[Value], value: Option<(&str, Value)>) -> Value {
    let mut fields = Map::new();
    fields.insert("op".into(), Value::String(op.into()));
    fields.insert("path".into(), Value::Array(path.to_vec()));
    if let Some((key, value)) = value {
        fields.insert(key.into(), value);
    }
    Value::Object(fields)
}

fn set(path: &[Value], value: &Value, ops: &mut Vec<Value>) {
    ops.push(op("set", path, Some(("value", value.clone()))));
}

fn walk(old: &Value, new: &Value, path: &mut Vec<Value>, ops: &mut Vec<Value>) {
    if old == new {
        return;
    }
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                path.push(Value::String(k.clone()));
                match a.get(k) {
                    Some(w) => walk(w, v, path, ops),
                    None => set(path, v, ops),
                }
                path.pop();
            }
            for k in a.keys().filter(|k| !b.contains_key(*k)) {
                path.push(Value::String(k.clone()));
                ops.push(op("del", path, None));
                path.pop();
            }
        }
        (Value::Array(a), Value::Array(b)) if b.len() > a.len() && b[..a.len()] == a[..] => {
            ops.push(op(
                "push",
                path,
                Some(("values", Value::Array(b[a.len()..].to_vec()))),
            ));
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            // Element by element, unless most of them changed (then one `set` is smaller).
            let changed = a.iter().zip(b).filter(|(x, y)| x != y).count();
            if changed * 2 > a.len() {
                set(path, new, ops);
                return;
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                path.push(json!(i));
                walk(x, y, path, ops);
                path.pop();
            }
        }
        _ => set(path, new, ops),
    }
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

/// Applies operations made by [`diff`] to `doc`.
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
        match (op["op"].as_str(), last) {
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
            (Some("push"), _) => {
                let target = match last {
                    Some(step) => step_into(at, step).ok_or_else(|| fail("no such array"))?,
                    None => at,
                };
                let values = op["values"].as_array().ok_or_else(|| fail("no values"))?;
                target
                    .as_array_mut()
                    .ok_or_else(|| fail("not an array"))?
                    .extend(values.iter().cloned());
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
    use super::*;

    fn round_trip(old: Value, new: Value) -> usize {
        let ops = diff(&old, &new);
        let mut doc = old;
        apply(&mut doc, &ops).expect("applies");
        assert_eq!(doc, new);
        ops.len()
    }

    #[test]
    fn equal_documents_need_nothing() {
        let d = json!({ "a": [1, 2, { "b": null }] });
        assert_eq!(round_trip(d.clone(), d), 0);
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

    #[test]
    fn a_growing_log_is_pushed_and_one_moved_counter_is_one_set() {
        let log = |n: usize| (0..n).map(|i| json!({ "text": i })).collect::<Vec<_>>();
        let counters = |hex: &str| {
            (0..10)
                .map(|i| json!({ "id": i, "hex": if i == 3 { hex } else { "0101" } }))
                .collect::<Vec<_>>()
        };
        let old = json!({ "log": log(5), "counters": counters("0101") });
        let new = json!({ "log": log(7), "counters": counters("0202") });
        let ops = diff(&old, &new);
        assert_eq!(ops.len(), 2, "{ops:?}");
        assert_eq!(ops[0]["path"], json!(["counters", 3, "hex"]));
        assert_eq!(ops[1]["op"], "push");
        assert_eq!(ops[1]["values"], json!(log(7)[5..]));
        round_trip(old, new);
    }

    #[test]
    fn shrinking_and_reordered_arrays_are_replaced() {
        round_trip(json!({ "l": [1, 2, 3] }), json!({ "l": [1, 2] }));
        round_trip(json!({ "l": [1, 2, 3] }), json!({ "l": [3, 2, 1] }));
        round_trip(json!({ "l": [1, 2, 3] }), json!({ "l": [0, 1, 2, 3] }));
    }

    #[test]
    fn bad_operations_are_refused() {
        let mut doc = json!({ "a": 1 });
        let e = apply(
            &mut doc,
            &[json!({ "op": "set", "path": ["x", "y"], "value": 1 })],
        );
        assert!(e.is_err());
        let e = apply(&mut doc, &[json!({ "op": "twist", "path": [] })]);
        assert_eq!(e.unwrap_err().reason, "unknown operation");
    }
}
