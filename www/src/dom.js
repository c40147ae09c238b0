// The one DOM helper the page's modules share.

/** A new `tag` element with `text` as its content and `props` assigned to it. */
export const element = (tag, text, props = {}) => Object.assign(document.createElement(tag), { textContent: text ?? "" }, props);
