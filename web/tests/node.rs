//! The wasm test suite, in Node.
#![cfg(target_arch = "wasm32")]

mod common;
