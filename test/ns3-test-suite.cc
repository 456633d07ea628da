/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The Catch2 test cases run by ns-3's own test runner (in-tree builds only: an ns-3 source
// tree's contrib/mlnet). One TestSuite "mlnet" holds one ns-3 TestCase per Catch2 TEST_CASE,
// so that
//
//   ./test.py -s mlnet                 (or ./ns3 run "test-runner --suite=mlnet")
//
// runs the same checks as the standalone build's CTest. This file also compiles Catch2's
// implementation (CATCH_CONFIG_RUNNER: no main(), test-runner has its own).

#define CATCH_CONFIG_RUNNER
#include "ns3/test.h"

#include <catch2/catch.hpp>
#include <memory>
#include <sstream>
#include <string>

namespace ns3
{
namespace
{

/**
 * \ingroup mlnet
 * \brief One Catch2 test case as an ns-3 TestCase: runs it with Catch2's console reporter and
 * fails if any of its assertions failed (an exception counts as a failed assertion).
 */
class Catch2TestCase : public TestCase
{
  public:
    /// \param tc the Catch2 test case
    explicit Catch2TestCase(const Catch::TestCase& tc)
        : TestCase(NameOf(tc)),
          m_test(tc)
    {
    }

  private:
    /// The Catch2 name without the characters ns-3 forbids in test names ("/\|?).
    static std::string NameOf(const Catch::TestCase& tc)
    {
        std::string name = tc.name;
        for (char& c : name)
        {
            if (std::string("\"/\\|?").find(c) != std::string::npos)
            {
                c = '-';
            }
        }
        return name;
    }

    void DoRun() override
    {
        Catch::ConfigData data;
        data.name = "mlnet";
        auto config = std::make_shared<Catch::Config>(data);
        Catch::Totals totals;
        {
            Catch::RunContext context(
                config,
                Catch::getRegistryHub().getReporterRegistry().create("console", config));
            totals = context.runTest(m_test);
        }
        std::ostringstream what;
        what << m_test.name << ": " << totals.assertions.failed << " of "
             << totals.assertions.total() << " Catch2 assertions failed (see above)";
        NS_TEST_ASSERT_MSG_EQ(totals.assertions.failed, 0, what.str());
    }

    Catch::TestCase m_test;
};

/**
 * \ingroup mlnet
 * \brief The suite "mlnet": its test cases are the Catch2 test cases registered in this
 * library, listed when the suite starts (Catch2 registers them during static initialisation,
 * in an order relative to this suite's constructor that C++ does not fix).
 */
class MlnetTestSuite : public TestSuite
{
  public:
    MlnetTestSuite()
        : TestSuite("mlnet")
    {
    }

  private:
    void DoSetup() override
    {
        if (m_listed)
        {
            return;
        }
        m_listed = true;
        for (const Catch::TestCase& tc :
             Catch::getRegistryHub().getTestCaseRegistry().getAllTests())
        {
            AddTestCase(new Catch2TestCase(tc));
        }
    }

    bool m_listed{false};
};

MlnetTestSuite g_mlnetTestSuite; //!< the static instance

} // namespace
} // namespace ns3
