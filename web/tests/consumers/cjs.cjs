// Node CommonJS: require() gives a package that works at once.
const leanwire = require("leanwire");
const { checkLeanwire } = require("./checks.mjs");

console.log(`node cjs: ${checkLeanwire(leanwire)} checks passed`);
