#!/usr/bin/env python3
"""Checks the include structure the folders promise (docs/ARCHITECTURE.md):

- no include cycle between top-level folders (include, src, partition, models, dense, ...);
- public headers (include/cellgraph) include nothing but each other and system headers.

Prints `file:line: what` for each breach and exits non-zero. `--self-test` checks the checker."""
import os
import re
import sys

SOURCE = re.compile(r'\.(h|hpp|cuh|c|cpp|cu)$')
INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def folder_of(path):
    """The top-level folder a repository path belongs to ('include' for public headers)."""
    return path.split('/')[0]


def folder_of_include(name, folders):
    if name.startswith('cellgraph/'):
        return 'include'
    head = name.split('/')[0]
    return head if head in folders else None


def includes(root, folders):
    """(file, line, from_folder, to_folder, name) for every quoted include across folders."""
    for folder in folders:
        for directory, _, files in os.walk(os.path.join(root, folder)):
            for f in sorted(files):
                if not SOURCE.search(f):
                    continue
                path = os.path.relpath(os.path.join(directory, f), root)
                with open(os.path.join(root, path), errors='replace') as text:
                    for number, line in enumerate(text, 1):
                        m = INCLUDE.match(line)
                        if m:
                            yield path, number, folder_of(path), folder_of_include(m.group(1), folders), m.group(1)


def cycles(edges):
    """The strongly connected groups of more than one folder (Tarjan)."""
    index, low, stack, on, groups, counter = {}, {}, [], set(), [], [0]
    nodes = sorted({a for a, _ in edges} | {b for _, b in edges})

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for a, b in edges:
            if a != v:
                continue
            if b not in index:
                visit(b)
                low[v] = min(low[v], low[b])
            elif b in on:
                low[v] = min(low[v], index[b])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in nodes:
        if v not in index:
            visit(v)
    return groups


def check(root, folders):
    problems, edges, where = [], set(), {}
    for path, number, source, target, name in includes(root, folders):
        if source == 'include' and target != 'include':
            problems.append(f'{path}:{number}: a public header includes "{name}"; public headers include only cellgraph/ headers')
        if target and target != source:
            edges.add((source, target))
            where.setdefault((source, target), f'{path}:{number}')
    for group in cycles(edges):
        for a, b in sorted(edges):
            if a in group and b in group:
                problems.append(f'{where[(a, b)]}: {a}/ includes {b}/, part of the include cycle {" <-> ".join(group)}')
    return problems


def self_test():
    import tempfile
    cases = [
        ({'include/cellgraph/a.hpp': '#include "cellgraph/b.hpp"\n', 'src/x.cpp': '#include "cellgraph/a.hpp"\n'}, 0),
        ({'include/cellgraph/a.hpp': '#include "models/m.hpp"\n', 'models/m.hpp': ''}, 1),
        ({'src/x.hpp': '#include "partition/p.hpp"\n', 'partition/p.hpp': '#include "src/x.hpp"\n'}, 2),
        ({'src/x.hpp': '#include "models/m.hpp"\n', 'models/m.hpp': '#include "dense/d.hpp"\n',
          'dense/d.hpp': '#include "src/y.hpp"\n'}, 3),
        ({'src/x.hpp': '#include <models/m.hpp>\n#include "src/y.hpp"\n'}, 0),
    ]
    for files, expected in cases:
        with tempfile.TemporaryDirectory() as root:
            for path, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
                with open(os.path.join(root, path), 'w') as f:
                    f.write(text)
            found = check(root, ['include', 'src', 'partition', 'models', 'dense'])
            if len(found) != expected:
                print(f'self-test: expected {expected} problems in {files}, found {found}')
                return 1
    print('self-test passed')
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folders = [f for f in sorted(os.listdir(root))
               if os.path.isdir(os.path.join(root, f)) and not f.startswith('.') and not f.startswith('build')]
    problems = check(root, folders)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
