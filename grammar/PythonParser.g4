// PythonParser: the syntax of Python 3.11, so that any numba script parses, host code included.
//
// Written in the shape of CPython's classic LL grammar (Grammar/Grammar up to 3.8) extended with
// what came after: `match` (soft keywords), positional-only `/`, the walrus, parenthesised
// context managers, `except*`, starred subscripts and relaxed decorators. Rules accept a little
// more than Python (assignment targets, parameter order); AstBuilder checks those and reports
// Python's own messages. f-strings are STRING tokens here, as in CPython 3.11; AstBuilder parses
// their replacement fields.
parser grammar PythonParser;

options {
  tokenVocab = PythonLexer;
  superClass = PythonParserBase;
}

@header { #include "PythonParserBase.h" }

file_input : (NEWLINE | stmt)* EOF;

// The entry point for the expression inside an f-string's replacement field.
fstring_expr : (testlist_star_expr | yield_expr) NEWLINE* EOF;

// ---- statements --------------------------------------------------------------------------------

stmt : simple_stmts | compound_stmt;

simple_stmts : simple_stmt (';' simple_stmt)* ';'? NEWLINE;

simple_stmt
  : expr_stmt
  | del_stmt
  | pass_stmt
  | break_stmt
  | continue_stmt
  | return_stmt
  | raise_stmt
  | yield_stmt
  | import_stmt
  | global_stmt
  | nonlocal_stmt
  | assert_stmt
  ;

expr_stmt
  : testlist_star_expr
    ( annassign
    | augassign (yield_expr | testlist_star_expr)
    | ('=' (yield_expr | testlist_star_expr))*
    )
  ;

annassign : ':' test ('=' (yield_expr | testlist_star_expr))?;

augassign
  : '+=' | '-=' | '*=' | '@=' | '/=' | '%=' | '&=' | '|=' | '^=' | '<<=' | '>>=' | '**=' | '//='
  ;

del_stmt : 'del' exprlist;
pass_stmt : 'pass';
break_stmt : 'break';
continue_stmt : 'continue';
return_stmt : 'return' testlist_star_expr?;
raise_stmt : 'raise' (test ('from' test)?)?;
yield_stmt : yield_expr;

import_stmt : import_name | import_from;
import_name : 'import' dotted_as_names;
import_from
  : 'from' (import_dots* dotted_name | import_dots+)
    'import' ('*' | '(' import_as_names ')' | import_as_names)
  ;
import_dots : '.' | '...';
import_as_name : name ('as' name)?;
dotted_as_name : dotted_name ('as' name)?;
import_as_names : import_as_name (',' import_as_name)* ','?;
dotted_as_names : dotted_as_name (',' dotted_as_name)*;
dotted_name : name ('.' name)*;

global_stmt : 'global' name (',' name)*;
nonlocal_stmt : 'nonlocal' name (',' name)*;
assert_stmt : 'assert' test (',' test)?;

compound_stmt
  : if_stmt
  | while_stmt
  | for_stmt
  | try_stmt
  | with_stmt
  | funcdef
  | classdef
  | decorated
  | async_stmt
  | match_stmt
  ;

async_stmt : ASYNC (funcdef | with_stmt | for_stmt);

if_stmt : 'if' namedexpr_test ':' block elif_clause* else_clause?;
elif_clause : 'elif' namedexpr_test ':' block;
else_clause : 'else' ':' block;

while_stmt : 'while' namedexpr_test ':' block else_clause?;

for_stmt : 'for' exprlist 'in' testlist_star_expr ':' block else_clause?;

try_stmt
  : 'try' ':' block
    ( except_clause+ else_clause? finally_clause?
    | finally_clause
    )
  ;
except_clause : 'except' '*'? (test ('as' name)?)? ':' block;
finally_clause : 'finally' ':' block;

with_stmt
  : 'with' ( '(' with_item (',' with_item)* ','? ')'
           | with_item (',' with_item)*
           ) ':' block
  ;
with_item : test ('as' expr)?;

block : simple_stmts | NEWLINE INDENT stmt+ DEDENT;

decorator : '@' namedexpr_test NEWLINE;
decorators : decorator+;
decorated : decorators (classdef | funcdef | async_funcdef);
async_funcdef : ASYNC funcdef;

funcdef : 'def' name parameters ('->' test)? ':' block;
parameters : '(' typedargslist? ')';

// Parameters in any order here; AstBuilder enforces Python's order and reports violations.
typedargslist : typedarg (',' typedarg)* ','?;
typedarg
  : tfpdef ('=' test)?   # plainParam
  | '*' tfpdef?          # starParam
  | '**' tfpdef          # doubleStarParam
  | '/'                  # slashParam
  ;
tfpdef : name (':' test)?;

varargslist : vararg (',' vararg)* ','?;
vararg
  : name ('=' test)?     # plainLambdaParam
  | '*' name?            # starLambdaParam
  | '**' name            # doubleStarLambdaParam
  | '/'                  # slashLambdaParam
  ;

classdef : 'class' name ('(' arglist? ')')? ':' block;

// ---- match statement ---------------------------------------------------------------------------

match_stmt : MATCH subject_expr ':' NEWLINE INDENT case_block+ DEDENT;
subject_expr : star_named_expression ',' star_named_expressions? | namedexpr_test;
star_named_expressions : star_named_expression (',' star_named_expression)* ','?;
star_named_expression : star_expr | namedexpr_test;

case_block : CASE patterns guard? ':' block;
guard : 'if' namedexpr_test;

patterns : open_sequence_pattern | pattern;
pattern : or_pattern ('as' name)?;
or_pattern : closed_pattern ('|' closed_pattern)*;
closed_pattern
  : literal_pattern
  | capture_pattern
  | class_pattern
  | value_pattern
  | group_pattern
  | sequence_pattern
  | mapping_pattern
  ;
literal_pattern
  : signed_number
  | complex_number
  | STRING+
  | 'None'
  | 'True'
  | 'False'
  ;
signed_number : '-'? NUMBER;
complex_number : signed_number ('+' | '-') NUMBER;
capture_pattern : name;     // `_` is the wildcard
value_pattern : name ('.' name)+;
group_pattern : '(' pattern ')';
sequence_pattern
  : '[' maybe_sequence_pattern? ']'
  | '(' open_sequence_pattern? ')'
  ;
open_sequence_pattern : maybe_star_pattern ',' maybe_sequence_pattern?;
maybe_sequence_pattern : maybe_star_pattern (',' maybe_star_pattern)* ','?;
maybe_star_pattern : star_pattern | pattern;
star_pattern : '*' name;
mapping_pattern : '{' (mapping_item (',' mapping_item)* ','?)? '}';
mapping_item
  : (literal_pattern | value_pattern) ':' pattern
  | '**' name
  ;
class_pattern : dotted_name '(' (pattern_argument (',' pattern_argument)* ','?)? ')';
pattern_argument : name '=' pattern | pattern;

// ---- expressions -------------------------------------------------------------------------------

namedexpr_test : test (':=' test)?;

test
  : or_test ('if' or_test 'else' test)?
  | lambdef
  ;
test_nocond : or_test | lambdef_nocond;
lambdef : 'lambda' varargslist? ':' test;
lambdef_nocond : 'lambda' varargslist? ':' test_nocond;

or_test : and_test ('or' and_test)*;
and_test : not_test ('and' not_test)*;
not_test : 'not' not_test | comparison;
comparison : expr (comp_op expr)*;
comp_op : '<' | '>' | '==' | '>=' | '<=' | '!=' | 'in' | 'not' 'in' | 'is' 'not' | 'is';
star_expr : '*' expr;

expr : xor_expr ('|' xor_expr)*;
xor_expr : and_expr ('^' and_expr)*;
and_expr : shift_expr (('&') shift_expr)*;
shift_expr : arith_expr (('<<' | '>>') arith_expr)*;
arith_expr : term (('+' | '-') term)*;
term : factor (('*' | '@' | '/' | '%' | '//') factor)*;
factor : ('+' | '-' | '~') factor | power;
power : atom_expr ('**' factor)?;
atom_expr : AWAIT? atom trailer*;

atom
  : '(' (yield_expr | testlist_comp)? ')'   # parenAtom
  | '[' testlist_comp? ']'                  # listAtom
  | '{' dictorsetmaker? '}'                 # braceAtom
  | name                                    # nameAtom
  | NUMBER                                  # numberAtom
  | STRING+                                 # stringAtom
  | '...'                                   # ellipsisAtom
  | 'None'                                  # noneAtom
  | 'True'                                  # trueAtom
  | 'False'                                 # falseAtom
  ;

name : NAME | MATCH | CASE;

testlist_comp
  : (namedexpr_test | star_expr) (comp_for | (',' (namedexpr_test | star_expr))* ','?)
  ;

trailer
  : '(' arglist? ')'        # callTrailer
  | '[' subscriptlist ']'   # subscriptTrailer
  | '.' name                # attributeTrailer
  ;

subscriptlist : subscript (',' subscript)* ','?;
subscript
  : test? ':' test? sliceop?   # sliceSubscript
  | namedexpr_test             # indexSubscript
  | star_expr                  # starSubscript
  ;
sliceop : ':' test?;

exprlist : (expr | star_expr) (',' (expr | star_expr))* ','?;
testlist : test (',' test)* ','?;
testlist_star_expr : (test | star_expr) (',' (test | star_expr))* ','?;

dictorsetmaker
  : dict_item (comp_for | (',' dict_item)* ','?)                               # dictMaker
  | (namedexpr_test | star_expr) (comp_for | (',' (namedexpr_test | star_expr))* ','?) # setMaker
  ;
dict_item : test ':' test | '**' expr;

arglist : argument (',' argument)* ','?;
argument
  : test comp_for     # generatorArgument
  | test ':=' test    # namedArgument
  | test '=' test     # keywordArgument
  | '**' test         # doubleStarArgument
  | '*' test          # starArgument
  | test              # positionalArgument
  ;

comp_iter : comp_for | comp_if;
comp_for : ASYNC? 'for' exprlist 'in' or_test comp_iter?;
comp_if : 'if' test_nocond comp_iter?;

yield_expr : 'yield' ('from' test | testlist_star_expr)?;
