// The words the bench's product names are made of: "<Adjective> <Material> <Noun> <n>", so that a search for a noun
// selects 1 product in 20 and one for a material 1 in 10. bench/scenarios/catalog.mjs seeds them by SQL and
// bench/peers/products.mjs builds the peers' catalog from them: the same searches select as many products on each.
export const ADJECTIVES = ['Red', 'Blue', 'Green', 'Black', 'White', 'Rustic', 'Modern', 'Vintage', 'Tiny', 'Large'];
export const MATERIALS = ['Oak', 'Steel', 'Glass', 'Ceramic', 'Linen', 'Cotton', 'Copper', 'Marble', 'Bamboo', 'Wool'];
export const NOUNS = [
  'Mug',
  'Lamp',
  'Chair',
  'Table',
  'Vase',
  'Towel',
  'Bowl',
  'Shelf',
  'Clock',
  'Rug',
  'Plate',
  'Stool',
  'Mirror',
  'Basket',
  'Candle',
  'Pillow',
  'Blanket',
  'Tray',
  'Jar',
  'Frame',
];
