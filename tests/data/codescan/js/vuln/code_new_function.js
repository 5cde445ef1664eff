function compileFilter(expr) {
  return new Function('item', 'return ' + expr + ';');
}
