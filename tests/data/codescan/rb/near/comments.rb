# Avoid eval(params[:expr]) — Dentaku parses arithmetic without running Ruby.
def calculate(expr)
  Dentaku::Calculator.new.evaluate(expr)
end
# `system("rm -rf #{dir}")` became FileUtils.rm_rf below
def clean(dir) = FileUtils.rm_rf(dir)
