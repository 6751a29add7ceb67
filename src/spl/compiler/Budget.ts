/** Generated SQL larger than this is refused (decisions §12's size budget). */
export const SQL_BUDGET = 64 * 1024
