/**
 * Formulas are parsed by our expression parser; we do not use eval() or new Function().
 * Example payload: {"formula": "price * qty"}
 */
export function evaluate(formula: string, row: Row): number {
  return parseExpression(formula).evaluate(row);
}
