def parse_literal(text):
    # Do not use eval(request.args["expr"]) here: ast.literal_eval only accepts literals.
    return ast.literal_eval(text)


def run_command(args):
    """Runs a fixed tool; never pass shell=True with user input (see os.system docs)."""
    return subprocess.run(["/usr/bin/tool", *args], check=True)
