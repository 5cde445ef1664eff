  def assign_referral_code
    self.referral_code = Array.new(8) { ('A'..'Z').to_a.sample }.join
  end
