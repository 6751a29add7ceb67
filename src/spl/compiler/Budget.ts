/** Generated SQL larger than this is refused. */
export const SQL_BUDGET = 64 * 1024
