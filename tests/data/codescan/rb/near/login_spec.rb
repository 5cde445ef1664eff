RSpec.describe 'Sessions', type: :request do
  it 'rejects a wrong password' do
    post '/login', params: { email: 'a@example.com', password: 'wrong-password' }
    expect(response).to have_http_status(:unauthorized)
  end
end
