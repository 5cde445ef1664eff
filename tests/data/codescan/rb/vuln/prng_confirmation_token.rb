class User < ApplicationRecord
  before_create :generate_confirmation_token

  private

  def generate_confirmation_token
    self.confirmation_token = Digest::SHA1.hexdigest("#{email}#{Time.now.to_i}#{rand}")
  end
end
