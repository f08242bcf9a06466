/** Called with every width × height a file declares (its canvas, each frame, each item); may throw to refuse the file. */
export type Declare = (width: number, height: number) => void;
