/**
 * The widget's styles, inside its shadow root. Every color, the font, the radius and the spacing come from CSS
 * custom properties the embedding page may set on `booking-widget` (they inherit through the shadow boundary);
 * docs/booking-widget.md lists them. The defaults pass WCAG AA contrast.
 */
export const STYLES = `
:host {
  display: block;
  font-family: var(--booking-widget-font, system-ui, sans-serif);
  color: var(--booking-widget-color, #111827);
  background: var(--booking-widget-background, #ffffff);
  border: 1px solid var(--booking-widget-border, #d1d5db);
  border-radius: var(--booking-widget-radius, 8px);
  padding: var(--booking-widget-spacing, 16px);
  max-width: var(--booking-widget-max-width, 40rem);
}
h2, h3 { margin: 0 0 8px; font-size: 1.1em; }
h3 { font-size: 1em; margin-top: 12px; }
label { display: block; margin: 8px 0 4px; font-weight: 600; }
input, select {
  font: inherit;
  color: inherit;
  background: var(--booking-widget-background, #ffffff);
  border: 1px solid var(--booking-widget-border, #6b7280);
  border-radius: var(--booking-widget-radius, 8px);
  padding: 6px 8px;
  width: 100%;
  box-sizing: border-box;
}
ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; }
button {
  font: inherit;
  cursor: pointer;
  border-radius: var(--booking-widget-radius, 8px);
  border: 1px solid var(--booking-widget-accent, #1d4ed8);
  padding: 6px 12px;
  background: var(--booking-widget-background, #ffffff);
  color: var(--booking-widget-accent, #1d4ed8);
}
button.primary { background: var(--booking-widget-accent, #1d4ed8); color: var(--booking-widget-accent-text, #ffffff); }
button:focus-visible, input:focus-visible, select:focus-visible {
  outline: 3px solid var(--booking-widget-focus, #f59e0b);
  outline-offset: 2px;
}
button[disabled] { opacity: 0.6; cursor: progress; }
.muted { color: var(--booking-widget-muted, #4b5563); }
.error { color: var(--booking-widget-error, #b91c1c); font-weight: 600; }
.error:empty { display: none; }
.actions { display: flex; gap: 8px; margin-top: 12px; }
.days { max-height: var(--booking-widget-slots-height, 24rem); overflow-y: auto; }
`;
