// TDS tokens as a person reads them: a result set as a table, its columns
// with their SQL types, and every other token as one line.
import { toHex } from "./bytes.js";
import { element } from "./dom.js";


/** A value of a row as text: NULL, dates in ISO form, bytes in hex. */
function showValue(value) {
  if (value === null) return "NULL";
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `0x${toHex(value)}`;
  return String(value);
}

function envValue(value) {
  if (value instanceof Uint8Array) return `0x${toHex(value)}`;
  if (typeof value === "object" && value !== null) return `${value.server}:${value.port}`;
  return value === "" ? "∅" : String(value);
}

/** One line for a token that is not a column list or a row. */
function summary(token) {
  switch (token.token) {
    case "DONE":
    case "DONEPROC":
    case "DONEINPROC":
      return `${token.token} · ${token.status.join(" ") || "FINAL"} · rowcount ${token.rowcount}`;
    case "ERROR":
    case "INFO":
      return `${token.token} ${token.number} (class ${token.class}, state ${token.state}) · ${token.message}`;
    case "ENVCHANGE":
      return `ENVCHANGE ${token.type} · ${envValue(token.old)} → ${envValue(token.new)}`;
    case "LOGINACK":
      return `LOGINACK · TDS ${token.tdsVersion} · ${token.progName} ${token.progVersion}`;
    case "RETURNSTATUS":
      return `RETURNSTATUS ${token.value}`;
    case "RETURNVALUE":
      return `RETURNVALUE ${token.name || `#${token.ordinal}`} = ${showValue(token.value)}`;
    case "ORDER":
      return `ORDER BY columns ${token.columns.join(", ")}`;
    default:
      return `${token.token} · ${token.text ?? ""}`;
  }
}

/** Appends tokens to `list` as they come: `add(token)`; `reset()` empties it. */
export function tokenView(list) {
  let body = null;
  return {
    reset() {
      list.replaceChildren();
      body = null;
    },
    add(token) {
      if (token.token === "COLMETADATA") {
        const table = element("table", "", { className: "result-set" });
        const head = element("tr", "");
        for (const column of token.columns) {
          const th = element("th", column.name || "(no name)");
          th.append(element("small", `${column.sqlType}${column.nullable ? " null" : ""}`));
          head.append(th);
        }
        table.append(element("thead", ""), element("tbody", ""));
        table.tHead.append(head);
        body = table.tBodies[0];
        const item = element("li", "", { className: "token-colmetadata" });
        item.append(element("span", `COLMETADATA · ${token.columns.length} columns`, { className: "token-name" }), table);
        list.append(item);
        return;
      }
      if ((token.token === "ROW" || token.token === "NBCROW") && body !== null) {
        const tr = element("tr", "");
        for (const value of token.values) tr.append(element("td", showValue(value), { className: value === null ? "null" : "" }));
        body.append(tr);
        return;
      }
      list.append(element("li", summary(token), { className: `token-${token.token.toLowerCase()}` }));
    },
  };
}
