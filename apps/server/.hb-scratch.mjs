import Handlebars from 'handlebars';
const env = Handlebars.create();
console.log(Object.keys(Handlebars).join(' '));
for (const src of ['Hi {{x', 'line1\nab {{x}}}', 'a\n  {{#if x}}\nb', 'a {{/if}}', 'x {{foo bar', '{{! comment', 'a }} b {', '{{x.y.[z}}', '{{#each items}}{{this}}{{else}}none{{/each}}', 'a\n\n {{"str"}}']) {
  try { const ast = env.parse(src); console.log('OK', JSON.stringify(src)); }
  catch (e) { console.log('ERR', JSON.stringify(src), JSON.stringify(e.message.split('\n')[0]), e.lineNumber, e.column, JSON.stringify(Handlebars.Parser.lexer.yylloc)); }
}
