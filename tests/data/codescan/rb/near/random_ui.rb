COLORS = %w[red green blue].freeze
def banner_color = COLORS.sample
def retry_delay(n) = (2**n) + rand * 0.1
