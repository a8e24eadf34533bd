//! Running the real `crusades` binary in a temporary folder.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a run printed and how it exited.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Asserts success and returns stdout.
    pub fn ok(self) -> String {
        assert_eq!(self.code, 0, "expected success: {self:#?}");
        self.stdout
    }

    /// Asserts exit status 2 with `needle` in the message, returning stderr.
    pub fn bad(self, needle: &str) -> String {
        assert_eq!(self.code, 2, "expected exit 2: {self:#?}");
        assert!(
            self.stderr.contains(needle),
            "stderr should contain `{needle}`: {self:#?}"
        );
        self.stderr
    }

    /// stdout as JSON.
    pub fn json(self) -> serde_json::Value {
        let out = self.ok();
        let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is JSON");
        assert_eq!(v["version"], 1, "every document has version 1: {out}");
        v
    }
}

/// A temporary folder to run in.
pub struct Dir {
    pub dir: tempfile::TempDir,
}

impl Dir {
    pub fn new() -> Self {
        Dir {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Runs `crusades ARGS` here (without CRUSADES_DATA from the environment).
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with(args, None, &[])
    }

    /// Runs with stdin and extra environment variables.
    pub fn run_with(&self, args: &[&str], stdin: Option<&str>, env: &[(&str, &Path)]) -> Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_crusades"));
        cmd.args(args)
            .current_dir(self.dir.path())
            .env_remove("CRUSADES_DATA")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("the binary runs");
        {
            let mut input = child.stdin.take().unwrap();
            if let Some(text) = stdin {
                input.write_all(text.as_bytes()).unwrap();
            }
        }
        let out = child.wait_with_output().unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// The bytes of a file here.
    pub fn bytes(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.path(name)).unwrap()
    }

    /// Writes a file here (creating folders).
    pub fn write(&self, name: &str, text: &str) {
        let p = self.path(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// Names of the files directly in the folder.
    pub fn files(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

/// The notations of `actions FILE --seat SEAT --json`.
pub fn notations(dir: &Dir, file: &str, seat: &str) -> Vec<String> {
    let v = dir.run(&["actions", file, "--seat", seat, "--json"]).json();
    v["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["notation"].as_str().unwrap().to_string())
        .collect()
}
