import { BookingWidget } from './booking-widget.js';

export { BookingWidget };

// Defined once, even when the script is included twice.
if (!customElements.get('booking-widget')) customElements.define('booking-widget', BookingWidget);
