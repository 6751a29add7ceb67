/** A bundle's text with every character past U+00FF written as its `\u` escape. */
export declare const latin1Source: (text: string) => string
