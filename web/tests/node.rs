//! The wasm test suite, in Node.

mod common;
