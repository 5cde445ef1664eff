require 'sinatra'
require 'sqlite3'
require 'json'

DB = SQLite3::Database.new('app.db')

get '/users' do
  content_type :json
  rows = DB.execute("SELECT id, name FROM users WHERE name LIKE '%#{params['q']}%'")
  rows.map { |id, name| { id: id, name: name } }.to_json
end

get '/health' do
  'ok'
end
