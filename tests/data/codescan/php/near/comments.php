<?php
// eval($_GET['code']) was removed in 2019; expressions go through the parser below.
/* shell_exec("rm -rf " . $dir) — replaced by the Filesystem component */
function evaluate(string $expr): float {
    return (new ExpressionLanguage())->evaluate($expr, ['price' => 10]);
}
