import DOMPurify from 'dompurify';

async function showAnswer(question) {
  const res = await fetch('/api/ask', { method: 'POST', body: JSON.stringify({ question }) });
  const { answer } = await res.json();
  document.getElementById('answer').innerHTML = DOMPurify.sanitize(answer);
}
