require 'rails_helper'

RSpec.describe User, type: :model do
  let(:password) { 'correct horse battery staple' }

  it 'authenticates with the right password' do
    user = User.create!(email: 'a@example.com', password: password)
    expect(user.authenticate(password)).to eq(user)
  end

  it 'rejects the wrong password' do
    user = User.create!(email: 'a@example.com', password: password)
    expect(user.authenticate('wrong-password')).to be(false)
  end

  it 'does not store the password in clear' do
    user = User.create!(email: 'a@example.com', password: password)
    expect(user.password_digest).not_to include(password)
  end
end
